/** Calendar days as whole numbers since 1970-01-01 (no time zone involved). Pure. */

const SECONDS_PER_DAY = 86_400;

/** Returns `YYYY-MM-DD` as days since 1970-01-01. The text must already be a valid day. */
export function dayNumber(day: string): number {
  return (
    Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10))) / 1000 / SECONDS_PER_DAY
  );
}

/** Returns the `YYYY-MM-DD` of a day number. */
export function dayText(day: number): string {
  return new Date(day * SECONDS_PER_DAY * 1000).toISOString().slice(0, 10);
}

/** Returns the ISO weekday (1 = Monday … 7 = Sunday) of a day number. */
export function isoWeekday(day: number): number {
  return ((((day + 3) % 7) + 7) % 7) + 1; // 1970-01-01 was a Thursday
}

export { SECONDS_PER_DAY };

/** Returns a Unix instant as `YYYY-MM-DDTHH:MM:SSZ` (spec §2 BookingResponse.slot). */
export function utcText(unix: number): string {
  return new Date(unix * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

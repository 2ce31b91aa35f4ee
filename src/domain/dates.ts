/** Local days as people write them (`YYYY-MM-DD`) and local wall-clock times of instants. Pure. */

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Returns true for a real calendar day written `YYYY-MM-DD` (`2026-02-30` is false). */
export function isDay(text: string): boolean {
  const match = DAY.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= daysInMonth(year, month);
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** A local time as the API writes it: `YYYY-MM-DD HH:MM:SS` (spec §2 Slot); the shape only, see isSlotText. */
export const SLOT = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** Returns true for `YYYY-MM-DD HH:MM:SS` naming a real day and time (19 characters exactly). */
export function isSlotText(text: string): boolean {
  if (text.length !== 19 || !SLOT.test(text) || !isDay(text.slice(0, 10))) return false;
  const [hours, minutes, seconds] = text.slice(11).split(':').map(Number) as [number, number, number];
  return hours < 24 && minutes < 60 && seconds < 60;
}

/** The minute of its local day a slot text (`YYYY-MM-DD HH:MM[:SS]`) names: `09:30` is 570. */
export function slotMinute(slot: string): number {
  return Number(slot.slice(11, 13)) * 60 + Number(slot.slice(14, 16));
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * Returns today's local day `YYYY-MM-DD` in `zone` at instant `now`. One formatter per zone: every engine input reads
 * today (for the extra hours), and a formatter made per call cost GET /days and /slots their speed and, in ICU's
 * memory, 40 → 286 MiB of anonymous memory under the benchmark's reads (bench/anon-probe.ts).
 */
export function localDay(now: Date, zone: string): string {
  let format = dayFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(zone, format);
  }
  return format.format(now);
}

const localFormats = new Map<string, Intl.DateTimeFormat>();

/** Returns `YYYY-MM-DD HH:MM` (with `seconds`, `HH:MM:SS`) for a UTC instant in `zone` (for people reading the CLI). */
export function formatLocal(instant: Date, zone: string, seconds = false): string {
  // One formatter per zone: building one costs far more than using it (`planner mail queue` formats thousands).
  const key = seconds ? `${zone} s` : zone;
  let format = localFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      ...(seconds ? { second: '2-digit' } : {}),
    });
    localFormats.set(key, format);
  }
  const parts = Object.fromEntries(format.formatToParts(instant).map((part) => [part.type, part.value]));
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}${seconds ? `:${parts.second}` : ''}`;
}

/**
 * Returns a time a person reads where no table header names the zone, local with the zone:
 * `2026-11-25 20:03 Europe/Berlin` (with `seconds`, `20:03:09`); an ISO text that is no instant as it is.
 */
export function localWithZone(instant: Date | string, zone: string, seconds = false): string {
  const at = typeof instant === 'string' ? new Date(instant) : instant;
  if (Number.isNaN(at.getTime())) return String(instant);
  try {
    return `${formatLocal(at, zone, seconds)} ${zone}`;
  } catch (error) {
    // A zone this Node does not know (a file edited by hand, a name a newer ICU dropped): the time in UTC, said so,
    // so that `doctor`, which reports the zone as failing, and `status` still print.
    if (!(error instanceof RangeError)) throw error;
    return `${formatLocal(at, 'UTC', seconds)} UTC`;
  }
}

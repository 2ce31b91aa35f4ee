import { Temporal } from 'temporal-polyfill';

/**
 * Returns the UTC instant (Unix seconds) of local `day` (`YYYY-MM-DD`) at `minute` minutes after midnight in `zone`.
 * Disambiguation is Temporal's `compatible`: a time in a spring-forward gap moves later, a time in a fall-back
 * overlap takes its earlier instant. `minute` may be 1440 (the next midnight).
 */
export function localToUnix(day: string, minute: number, zone: string): number {
  const date = Temporal.PlainDate.from(day).add({ days: Math.floor(minute / 1440) });
  const rest = minute % 1440;
  const zoned = date
    .toPlainDateTime({ hour: Math.floor(rest / 60), minute: rest % 60 })
    .toZonedDateTime(zone, { disambiguation: 'compatible' });
  return Math.floor(zoned.epochMilliseconds / 1000);
}

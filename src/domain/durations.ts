/**
 * Durations as every option takes them: `45`, `45m`, `1h30m`, `12h`, `2d`, `1d12h`, `2w` (units in the
 * order w, d, h, m, each at most once; upper case too). A bare number counts in the option's own unit: minutes
 * everywhere, hours for `--cancel-until`, days for a series' `--repeat`. Pure: problems are values.
 */
import type { Checked } from './checks.ts';

/** The unit a bare number counts in. */
export type BareUnit = 'minutes' | 'hours' | 'days';

const BARE_MINUTES: Record<BareUnit, number> = { minutes: 1, hours: 60, days: 1440 };
const BARE_EXAMPLES: Record<BareUnit, string> = {
  minutes: '45 (minutes), 45m, 1h30m, 12h or 2d',
  hours: '48 (hours), 48h, 2d or 1h30m',
  days: '7 (days), 7d, 1w or 2w',
};

const BARE = /^\d{1,7}$/;
const WITH_UNITS = /^(?:(\d{1,5})w)?(?:(\d{1,6})d)?(?:(\d{1,7})h)?(?:(\d{1,7})m)?$/;

/** Returns the minutes written in `text` (`45`, `45m`, `1h30m`, `12h`, `2d`, `2w`; a bare number in `bare`), or the problem. */
export function parseDuration(text: string, bare: BareUnit = 'minutes'): Checked<number> {
  const written = text.trim().toLowerCase();
  if (BARE.test(written)) return { ok: true, value: Number(written) * BARE_MINUTES[bare] };
  const match = WITH_UNITS.exec(written);
  if (written === '' || !match)
    return { ok: false, error: `"${text}" is not a duration: write ${BARE_EXAMPLES[bare]}` };
  const [weeks, days, hours, minutes] = [match[1], match[2], match[3], match[4]].map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
    number,
  ];
  return { ok: true, value: (weeks * 7 + days) * 1440 + hours * 60 + minutes };
}

/** Returns minutes as the shortest duration text that reads back to them: `0`, `45m`, `1h30m`, `4h`, `365d`, `1d12h`. */
export function formatDuration(minutes: number): string {
  if (minutes === 0) return '0';
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  return `${days ? `${days}d` : ''}${hours ? `${hours}h` : ''}${rest ? `${rest}m` : ''}`;
}

/**
 * Returns the minutes of `text` when they lie in [min, max], or the problem naming `option` and the value as typed:
 * `--buffer-after must be from 0 to 4h (got "5h")`.
 */
export function durationIn(
  text: string,
  option: string,
  range: { min: number; max: number; bare?: BareUnit },
): Checked<number> {
  const parsed = parseDuration(text, range.bare);
  if (!parsed.ok) return { ok: false, error: `${option}: ${parsed.error}` };
  if (parsed.value < range.min || parsed.value > range.max) {
    return {
      ok: false,
      error: `${option} must be from ${formatDuration(range.min)} to ${formatDuration(range.max)} (got "${text}")`,
    };
  }
  return parsed;
}

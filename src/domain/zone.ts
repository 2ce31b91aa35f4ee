import { Temporal } from 'temporal-polyfill';

/** Returns true when `zone` is an IANA time zone name this runtime knows (`Europe/Berlin`, `UTC`). */
export function isTimeZone(zone: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * Legacy and ambiguous names (tzdata's "backward" file and the POSIX-style zones): each is refused with the place a
 * practice most likely means. Names not listed here are refused with the runtime's own canonical name for them.
 */
const INSTEAD: Record<string, string> = {
  CET: 'Europe/Berlin',
  MET: 'Europe/Berlin',
  EET: 'Europe/Athens',
  WET: 'Europe/Lisbon',
  EST: 'America/New_York',
  EST5EDT: 'America/New_York',
  CST6CDT: 'America/Chicago',
  MST: 'America/Phoenix',
  MST7MDT: 'America/Denver',
  PST8PDT: 'America/Los_Angeles',
  HST: 'Pacific/Honolulu',
  GMT: 'UTC',
};

/** The areas of the IANA database's place names (`Europe/Berlin`, `America/Argentina/Buenos_Aires`). */
const PLACE = /^(Africa|America|Antarctica|Arctic|Asia|Atlantic|Australia|Europe|Indian|Pacific)\/[A-Z]/;

/**
 * Returns what is wrong with `zone` as a practice's time zone, with the name to use instead, or undefined when it
 * is `UTC` or a place name of the IANA database that this runtime knows (`Europe/Berlin`; older spellings of a
 * place such as `Asia/Calcutta` too). Legacy and ambiguous names (`CET`, `EST5EDT`, `GB`, `US/Eastern`), names in
 * the wrong case and fixed offsets (`Etc/GMT+5`) are refused: they are not what a practice's customers live by, or
 * they mean something else than they seem.
 */
export function timeZoneProblem(zone: string): string | undefined {
  if (!isTimeZone(zone)) return `"${zone}" is not an IANA time zone (example: Europe/Berlin)`;
  if (zone === 'UTC' || PLACE.test(zone)) return undefined;
  const canonical = new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone;
  const instead = INSTEAD[zone.toUpperCase()] ?? (canonical === 'UTC' || PLACE.test(canonical) ? canonical : undefined);
  return instead === undefined
    ? `"${zone}" is a fixed offset or legacy name, not a place: use the place's zone (example: Europe/Berlin)`
    : `"${zone}" is a legacy or ambiguous time zone name: use ${instead}`;
}

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

/** UTC offsets lie within ±14 h (seconds): a local day's instants lie within this of its day number × 1 day. */
export const MAX_UTC_OFFSET = 14 * 3600;

/**
 * A zone's UTC offsets over a window of time, read from the zone rules once (a few Temporal calls), so that
 * thousands of wall-clock times convert with arithmetic. `offsets[i]` holds from `starts[i]` on (seconds).
 */
export interface OffsetTable {
  starts: number[];
  offsets: number[];
}

const tables = new Map<string, OffsetTable>();

/**
 * Returns the offsets of `zone` in effect between the Unix instants `from` and `to` (at least). Zone rules do
 * not change while the program runs, so tables are kept per zone and whole-day window: the Temporal calls are
 * paid once per window, not per request.
 */
export function offsetTable(zone: string, from: number, to: number): OffsetTable {
  const first = Math.floor(from / 86_400);
  const last = Math.ceil(to / 86_400);
  const key = `${zone} ${first} ${last}`;
  let table = tables.get(key);
  if (!table) {
    if (tables.size >= 1000) tables.clear(); // windows move a day at a time: a handful per zone
    table = readOffsets(zone, first * 86_400, last * 86_400);
    tables.set(key, table);
  }
  return table;
}

function readOffsets(zone: string, from: number, to: number): OffsetTable {
  let zoned = Temporal.Instant.fromEpochMilliseconds(from * 1000).toZonedDateTimeISO(zone);
  const table: OffsetTable = { starts: [-Infinity], offsets: [zoned.offsetNanoseconds / 1e9] };
  for (;;) {
    const next = zoned.getTimeZoneTransition('next');
    if (next === null || next.epochMilliseconds / 1000 > to) return table;
    table.starts.push(next.epochMilliseconds / 1000);
    table.offsets.push(next.offsetNanoseconds / 1e9);
    zoned = next;
  }
}

/** Returns the offset (seconds east of UTC) in effect at instant `at`. */
export function offsetAt(table: OffsetTable, at: number): number {
  // The last start at or before `at`, by halving (a calendar's own time zone may bring up to 100 changes).
  let low = 0;
  let high = table.starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (table.starts[middle]! <= at) low = middle;
    else high = middle - 1;
  }
  return table.offsets[low]!;
}

/**
 * Returns the instant of a wall-clock time (`wall`: seconds since 1970-01-01T00:00 local), or undefined when that
 * local time does not exist (a spring-forward gap). A time that happens twice (fall-back) gives its earlier instant.
 */
export function wallToUnix(table: OffsetTable, wall: number): number | undefined {
  let best: number | undefined;
  for (const offset of table.offsets) {
    const at = wall - offset;
    if (offsetAt(table, at) === offset && (best === undefined || at < best)) best = at;
  }
  return best;
}

/** Like `wallToUnix`, but a time in a gap moves later by the gap's length (Temporal's `compatible`). */
export function wallToUnixCompatible(table: OffsetTable, wall: number): number {
  const exact = wallToUnix(table, wall);
  if (exact !== undefined) return exact;
  // A gap at transition T (offset `before` -> larger `after`) skips the wall times [T + before, T + after);
  // `compatible` keeps the offset before the gap, which lands after T.
  for (let index = 1; index < table.starts.length; index++) {
    const before = table.offsets[index - 1]!;
    const after = table.offsets[index]!;
    const transition = table.starts[index]!;
    if (after > before && wall >= transition + before && wall < transition + after) return wall - before;
  }
  return wall - table.offsets[0]!; // not reached for a table that covers `wall`
}

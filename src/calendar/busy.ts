/**
 * The busy times of a practitioner's calendar (issue 25): iCalendar texts (one .ics, or the resources of a CalDAV
 * collection) read into the spans that block booking, over a window. Pure: no I/O, no clock.
 *
 * Busy is an event that is not `STATUS:CANCELLED` and not `TRANSP:TRANSPARENT` (`TENTATIVE` is busy), all-day events
 * alike, and the busy periods of a `VFREEBUSY` (all but `FBTYPE=FREE`). Recurrence as RFC 5545 means it: RRULE
 * (COUNT, UNTIL, the BY-parts) in the wall-clock time of its DTSTART's zone, RDATE, EXDATE and RECURRENCE-ID
 * overrides (moved, cancelled or made free), a RANGE=THISANDFUTURE override read as one occurrence's; an override
 * without its series (Google's free/busy-only export writes each occurrence so) is an event of its own. Each series
 * is expanded only up to the window's end, at most SERIES_CAP occurrences within it.
 *
 * Time: a TZID that names an IANA zone, a Windows zone as Outlook writes it (windows-zones.ts), or an IANA name
 * behind a prefix (`/mozilla.org/20050126_1/Europe/Berlin`) is read with the runtime's zone rules; another TZID with
 * its VTIMEZONE in the calendar with those rules (ical.js); an unknown TZID, a floating time and a DATE value in the
 * practice's zone (an all-day event blocks whole local days there). A local time the clocks skip moves later, one
 * they repeat is its first instant (RFC 5545 §3.3.5).
 *
 * planner's own events (UID `<reference>@planner`, its calendar feed subscribed into the same calendar) never block.
 * What comes out is only a span and a hash of the UID: never a title, place or attendee. ical.js (Mozilla's, the
 * parser of Thunderbird's calendar) reads the components and iterates RRULEs; the calendar's text is cut into its
 * components here first, grouped by UID, and each group parsed when its turn comes, so that `busyTimesSliced` can
 * give the event loop back between them (a 10 MiB calendar in one parse would hold it for far longer than 20 ms).
 */
import { createHash } from 'node:crypto';
import ICAL from 'ical.js';
import { Temporal } from 'temporal-polyfill';
import { byBusyOrder, type BusySpan } from '../domain/blocking.ts';
import { isTimeZone, MAX_UTC_OFFSET, offsetTable, wallToUnixCompatible } from '../domain/zone.ts';
import { WINDOWS_ZONES } from './windows-zones.ts';

/** The fields of a wall time (seconds as if UTC): what Temporal and ical.js build a local time from. */
function wallFields(wall: number) {
  const date = new Date(wall * 1000);
  return {
    year: date.getUTCFullYear(),
    month: date.getUTCMonth() + 1,
    day: date.getUTCDate(),
    hour: date.getUTCHours(),
    minute: date.getUTCMinutes(),
    second: date.getUTCSeconds(),
  };
}

/** A span that blocks: Unix seconds, [startAt, endAt), and the hash of its event's UID. */
export type BusyTime = BusySpan;

export interface BusyOptions {
  /** The practice's IANA zone: floating times, DATE values and unknown TZIDs are read in it. */
  zone: string;
  /** The window, Unix seconds: only busy times that end after `from` and begin before `to`. */
  from: number;
  to: number;
  /** The most VEVENT and VFREEBUSY components over all texts (default MAX_EVENTS); above it the read fails. */
  maxEvents?: number;
}

/** The most events a calendar may hold (issue 25). */
export const MAX_EVENTS = 20_000;
/** The most occurrences of one series within the window (a daily series over two years is 730). */
export const SERIES_CAP = 5_000;
/** The most steps one series' RRULE is iterated (those before the window count): a runaway rule stops here. */
const SERIES_STEPS = 200_000;
/** The most busy times one read may give (all series and events together; a 5,000-event calendar with 200 weekly series gives 15,300 in a year); above it the read fails, and its sorts stay short. */
export const MAX_BUSY_TIMES = 50_000;
/**
 * The most candidates ical.js may test for one next occurrence of a rule. Its iterator has no bound of its own for
 * DAILY and shorter rules whose BY-parts never match (`FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30` never ends) or match
 * rarely (`FREQ=SECONDLY;BYMONTH=12` tests every second until December): one call would hold the event loop for
 * good. Past the window planner stops such a rule; within it, above this many, the read fails with one line.
 */
const CANDIDATES_PER_OCCURRENCE = 10_000;
/** Units of work (components, occurrences) between two chances to give the event loop back. */
const STEP = 25;

/** A calendar that cannot be read: one line, never with an event's text. */
export class CalendarDataError extends Error {}

/** Wall-clock seconds since 1970-01-01T00:00 of an ical.js time (its fields, whatever its zone). */
function wallOf(time: ICAL.Time): number {
  return Date.UTC(time.year, time.month - 1, time.day, time.hour, time.minute, time.second) / 1000;
}

/** Converts wall-clock seconds of one zone to Unix seconds. */
type Zoner = (wall: number) => number;

/** A TZID parameter as its VTIMEZONE names it: trimmed, without the quotes some writers put around it. */
function tzidName(tzid: string): string {
  return tzid.trim().replace(/^"|"$/g, '').trim();
}

/** Returns the IANA zone a TZID names, directly, as a Windows name, or behind a prefix; undefined for none. */
export function ianaZoneOf(tzid: string): string | undefined {
  const name = tzidName(tzid);
  if (isTimeZone(name)) return name;
  const windows = WINDOWS_ZONES.get(name);
  if (windows) return windows;
  const parts = name.split('/').filter(Boolean);
  for (const length of [3, 2]) {
    const tail = parts.slice(-length).join('/');
    if (parts.length >= length && tail.includes('/') && isTimeZone(tail)) return tail;
  }
  return undefined;
}

/** The zones of one read: IANA zones with the runtime's rules (a table around the window), VTIMEZONEs with ical.js's. */
class Zones {
  private readonly iana = new Map<string, Zoner>();
  private readonly byTzid = new Map<string, Zoner>();
  private readonly options: BusyOptions;
  private readonly vtimezones: Map<string, ICAL.Timezone>;
  readonly practice: Zoner;

  constructor(options: BusyOptions, vtimezones: Map<string, ICAL.Timezone>) {
    this.options = options;
    this.vtimezones = vtimezones;
    this.practice = this.ianaZoner(options.zone);
  }

  private ianaZoner(zone: string): Zoner {
    let zoner = this.iana.get(zone);
    if (zoner) return zoner;
    const from = this.options.from - 3 * 86_400;
    const to = this.options.to + 3 * 86_400;
    const table = offsetTable(zone, from, to);
    zoner = (wall) => {
      if (wall > from + MAX_UTC_OFFSET && wall < to - MAX_UTC_OFFSET) return wallToUnixCompatible(table, wall);
      const local = Temporal.PlainDateTime.from(wallFields(wall));
      return Math.floor(local.toZonedDateTime(zone, { disambiguation: 'compatible' }).epochMilliseconds / 1000);
    };
    this.iana.set(zone, zoner);
    return zoner;
  }

  /** Returns the converter for a TZID (see the module's comment for the order). */
  of(tzid: string | undefined): Zoner {
    if (tzid === undefined) return this.practice;
    let zoner = this.byTzid.get(tzid);
    if (zoner) return zoner;
    const iana = ianaZoneOf(tzid);
    const vtimezone = this.vtimezones.get(tzidName(tzid));
    if (iana) zoner = this.ianaZoner(iana);
    else if (vtimezone) {
      zoner = (wall) => {
        const time = ICAL.Time.fromData(wallFields(wall));
        return wall - vtimezone.utcOffset(time);
      };
    } else zoner = this.practice;
    this.byTzid.set(tzid, zoner);
    return zoner;
  }
}

/** A point in time as a calendar writes it: a wall time in a zone, or UTC, or a day. */
interface Moment {
  wall: number;
  date: boolean;
  utc: boolean;
  /** A date-time without TZID and not UTC: read in the practice's zone, unless it belongs to a series (inZoneOf). */
  floating: boolean;
  zoner: Zoner;
}

function momentOf(time: ICAL.Time, tzid: string | undefined, zones: Zones): Moment {
  const utc = !time.isDate && time.zone?.tzid === 'UTC';
  const floating = !time.isDate && !utc && tzid === undefined;
  return { wall: wallOf(time), date: time.isDate, utc, floating, zoner: time.isDate || utc ? zones.practice : zones.of(tzid) };
}

function unixOf(moment: Moment): number {
  return moment.utc ? moment.wall : moment.zoner(moment.wall);
}

/** Returns the moment of a component's date property (DTSTART, DTEND, RECURRENCE-ID), or undefined. */
function momentProperty(component: ICAL.Component, name: string, zones: Zones): Moment | undefined {
  const property = component.getFirstProperty(name);
  const value = property?.getFirstValue();
  if (!property || !(value instanceof ICAL.Time)) return undefined;
  return momentOf(value, property.getParameter('tzid') as string | undefined, zones);
}

/** Whether a component blocks: not cancelled, not transparent. */
function isBusy(component: ICAL.Component): boolean {
  const status = String(component.getFirstPropertyValue('status') ?? '').toUpperCase();
  const transp = String(component.getFirstPropertyValue('transp') ?? '').toUpperCase();
  return status !== 'CANCELLED' && transp !== 'TRANSPARENT';
}

/** How long an event lasts: whole days for an all-day one (its end read on the local calendar), else seconds. */
type Length = { days: number } | { seconds: number };

function lengthOf(component: ICAL.Component, start: Moment, zones: Zones): Length {
  const end = momentProperty(component, 'dtend', zones);
  if (end) return start.date ? { days: Math.round((end.wall - start.wall) / 86_400) } : { seconds: unixOf(end) - unixOf(start) };
  const duration = component.getFirstPropertyValue('duration');
  if (duration instanceof ICAL.Duration) {
    const seconds = duration.toSeconds();
    return start.date ? { days: Math.max(1, Math.round(seconds / 86_400)) } : { seconds };
  }
  return start.date ? { days: 1 } : { seconds: 0 };
}

/** The span of an occurrence that begins at `start` and lasts `length`. */
function spanOf(start: Moment, length: Length): { startAt: number; endAt: number } {
  const startAt = unixOf(start);
  if ('days' in length) return { startAt, endAt: start.zoner(start.wall + length.days * 86_400) };
  return { startAt, endAt: startAt + length.seconds };
}

/** Everything of one UID: its series (if any) and its overrides or lone occurrences. */
interface Group {
  uid: string;
  master?: ICAL.Component;
  overrides: ICAL.Component[];
}

/** One component's text (a slice of the calendar's, not a copy) and the line it begins on, for errors. */
interface Part {
  text: string;
  line: number;
}

/**
 * The calendars cut into their components, not yet parsed: the events grouped by UID (read from the text), the
 * free/busy blocks, the time zones (parsed: few, and every group needs them). A group's components are parsed only
 * when its turn comes and dropped after it, so that what stays alive is text, and the garbage collector's pauses
 * stay short (parsing all 20,000 events first kept them alive and made its pauses 10 to 18 ms).
 */
interface Indexed {
  groups: Map<string, Part[]>;
  freebusy: Part[];
  vtimezones: Map<string, ICAL.Timezone>;
}

/** Parses one component's text; a text ical.js cannot read is a one-line error naming the line, not its content. */
function parseComponent(part: Part): ICAL.Component {
  try {
    return new ICAL.Component(ICAL.parse(part.text) as unknown as unknown[]);
  } catch {
    throw new CalendarDataError(`the calendar has a component planner cannot read (from line ${part.line}): it is not valid iCalendar`);
  }
}

/** Cuts the texts into their top-level components and groups them, yielding between them. */
function* indexAll(texts: readonly string[], maxEvents: number): Generator<void, Indexed> {
  const indexed: Indexed = { groups: new Map(), freebusy: [], vtimezones: new Map() };
  let events = 0;
  let work = 0;
  for (const text of texts) {
    if (!/^\uFEFF?\s*BEGIN:VCALENDAR/i.test(text)) throw new CalendarDataError('the calendar is not iCalendar data (it does not begin with BEGIN:VCALENDAR)');
    let position = 0;
    let lineNumber = 0;
    let depth = 0;
    let kind = '';
    let begin = 0;
    let firstLine = 0;
    let uid: string | undefined;
    while (position < text.length) {
      let end = text.indexOf('\n', position);
      if (end < 0) end = text.length;
      lineNumber++;
      const lineStart = position;
      position = end + 1;
      const head = text.slice(lineStart, Math.min(end, lineStart + 40)).toUpperCase();
      if (head.startsWith('BEGIN:')) {
        depth++;
        if (depth === 2) {
          kind = head.slice(6).trim();
          begin = lineStart;
          firstLine = lineNumber;
          uid = undefined;
        }
      } else if (head.startsWith('END:')) {
        if (depth === 2 && ['VEVENT', 'VFREEBUSY', 'VTIMEZONE'].includes(kind)) {
          if (kind !== 'VTIMEZONE' && ++events > maxEvents) {
            throw new CalendarDataError(`the calendar holds more than ${maxEvents.toLocaleString('en')} events: planner reads at most that many`);
          }
          const part = { text: text.slice(begin, position), line: firstLine };
          if (kind === 'VTIMEZONE') addZone(indexed, parseComponent(part));
          else if (kind === 'VFREEBUSY') indexed.freebusy.push(part);
          else groupOf(indexed, uid ?? '').push(part);
          if (++work % STEP === 0) yield;
        }
        depth--;
      } else if (depth === 2 && uid === undefined && /^UID[:;]/.test(head)) {
        uid = unfolded(text, lineStart, end).replace(/^[^:]*:/, '').trim();
      }
    }
    if (depth !== 0) throw new CalendarDataError('the calendar ends in the middle of a component: it was cut off, or is not valid iCalendar');
  }
  return indexed;
}

/** The content line that begins at `start` and ends at `end` (its first line's end), with its folded lines joined. */
function unfolded(text: string, start: number, end: number): string {
  let line = text.slice(start, end).replace(/\r$/, '');
  for (let next = end + 1; next < text.length && (text[next] === ' ' || text[next] === '\t'); ) {
    let stop = text.indexOf('\n', next);
    if (stop < 0) stop = text.length;
    line += text.slice(next + 1, stop).replace(/\r$/, '');
    next = stop + 1;
  }
  return line;
}

function groupOf(indexed: Indexed, uid: string): Part[] {
  let parts = indexed.groups.get(uid);
  if (!parts) indexed.groups.set(uid, (parts = []));
  return parts;
}

function addZone(indexed: Indexed, component: ICAL.Component): void {
  const tzid = String(component.getFirstPropertyValue('tzid') ?? '');
  if (tzid && !indexed.vtimezones.has(tzid)) indexed.vtimezones.set(tzid, new ICAL.Timezone(component));
}

/** Parses the components of one UID into its series (if any) and its overrides or lone occurrences, yielding between them. */
function* parseGroup(uid: string, parts: readonly Part[]): Generator<void, Group> {
  const group: Group = { uid, overrides: [] };
  for (const [index, part] of parts.entries()) {
    const component = parseComponent(part);
    if (component.hasProperty('recurrence-id')) group.overrides.push(component);
    else if (!group.master) group.master = component;
    else group.overrides.push(component); // a second event without RECURRENCE-ID under one UID: an event of its own
    if (index % STEP === STEP - 1) yield;
  }
  return group;
}

/** `sha256(uid)`, 32 hex characters: what planner keeps of an event instead of the event. */
export function uidHash(uid: string): string {
  return createHash('sha256').update(uid).digest('hex').slice(0, 32);
}

/** The busy times of one lone event (no series): its own span, if it blocks. */
function loneSpan(component: ICAL.Component, zones: Zones): { startAt: number; endAt: number } | undefined {
  if (!isBusy(component)) return undefined;
  const start = momentProperty(component, 'dtstart', zones);
  if (!start) return undefined;
  return spanOf(start, lengthOf(component, start, zones));
}

/**
 * A floating EXDATE or RECURRENCE-ID of a series in a zone means a wall time of that zone (Outlook writes them so):
 * returns `moment` read in `start`'s zone then.
 */
function inZoneOf(moment: Moment, start: Moment): Moment {
  return moment.floating && !start.date ? { ...moment, zoner: start.zoner } : moment;
}

/** The key an occurrence is matched by (EXDATE, RECURRENCE-ID): its start instant. */
function keyOf(moment: Moment): number {
  return unixOf(moment);
}

/** Thrown inside ical.js's iterator once it has passed the window: no occurrence after it can count. */
const PAST_THE_WINDOW = Symbol('past the window');

/**
 * Returns `rule`'s iterator from `dtstart`, bounded: `next()` answers null once the candidates it tests pass
 * `endWall` (a wall time), and throws CalendarDataError after CANDIDATES_PER_OCCURRENCE candidates for one
 * occurrence. ical.js tests each candidate in `check_contracting_rules`, which is wrapped here.
 */
function boundedIterator(rule: ICAL.Recur, dtstart: ICAL.Time, endWall: number): { next(): ICAL.Time | null } {
  type Iterator = { next(): ICAL.Time | null; last: ICAL.Time; check_contracting_rules(): boolean };
  const unreadable = (error: unknown) =>
    error instanceof CalendarDataError ? error : new CalendarDataError(`an event has a repeat rule planner cannot read (RRULE:${rule.toString()}): ${String((error as Error)?.message ?? error).split('\n', 1)[0]}`);
  let iterator: Iterator;
  try {
    iterator = rule.iterator(dtstart) as unknown as Iterator;
  } catch (error) {
    throw unreadable(error);
  }
  const contracting = iterator.check_contracting_rules.bind(iterator);
  let candidates = 0;
  iterator.check_contracting_rules = () => {
    if (wallOf(iterator.last) > endWall) throw PAST_THE_WINDOW;
    if (++candidates > CANDIDATES_PER_OCCURRENCE) {
      throw new CalendarDataError(`an event repeats by a rule planner cannot expand in reasonable time (RRULE:${rule.toString()}): change or remove that event`);
    }
    return contracting();
  };
  return {
    next() {
      candidates = 0;
      try {
        return iterator.next();
      } catch (error) {
        if (error === PAST_THE_WINDOW) return null;
        throw unreadable(error);
      }
    },
  };
}

/** Throws when a read gives more busy times than MAX_BUSY_TIMES (a calendar planner would need too long to keep). */
function checkTotal(out: readonly BusyTime[]): void {
  if (out.length > MAX_BUSY_TIMES) {
    throw new CalendarDataError(`the calendar gives more than ${MAX_BUSY_TIMES.toLocaleString('en')} busy times in the schedule's window: planner reads at most that many`);
  }
}

/** Expands a series over the window, with its overrides, into `out`. Yields every STEP occurrences. */
function* expandSeries(group: Group, zones: Zones, options: BusyOptions, hash: string, out: BusyTime[]): Generator<void, void> {
  const master = group.master!;
  const start = momentProperty(master, 'dtstart', zones);
  if (!start) return;
  const length = lengthOf(master, start, zones);
  const longest = 'days' in length ? length.days * 86_400 : Math.max(0, length.seconds);
  const busy = isBusy(master);
  const overrides = new Map<number, ICAL.Component>();
  const unmatched = new Set<ICAL.Component>();
  for (const [index, override] of group.overrides.entries()) {
    const id = momentProperty(override, 'recurrence-id', zones);
    if (id) overrides.set(keyOf(inZoneOf(id, start)), override);
    unmatched.add(override);
    if (index % STEP === STEP - 1) yield;
  }
  const excluded = new Set<number>();
  const excludedDays = new Set<number>();
  for (const property of master.getAllProperties('exdate')) {
    const tzid = property.getParameter('tzid') as string | undefined;
    for (const value of property.getValues()) {
      if (!(value instanceof ICAL.Time)) continue;
      if (value.isDate && !start.date) excludedDays.add(Math.floor(wallOf(value) / 86_400));
      else excluded.add(keyOf(inZoneOf(momentOf(value, tzid, zones), start)));
    }
  }
  const emitted = new Set<number>();
  let count = 0;
  const occurrence = (moment: Moment, own?: Length): boolean => {
    const key = keyOf(moment);
    if (emitted.has(key)) return true;
    emitted.add(key);
    if (excluded.has(key) || excludedDays.has(Math.floor(moment.wall / 86_400))) return true;
    const override = overrides.get(key);
    if (override) {
      unmatched.delete(override);
      const span = loneSpan(override, zones);
      if (span && span.endAt > options.from && span.startAt < options.to) out.push({ ...span, uidHash: hash });
      return true;
    }
    const span = spanOf(moment, own ?? length);
    if (span.endAt <= options.from) return true;
    if (span.startAt >= options.to) return true;
    if (++count > SERIES_CAP) return false;
    if (busy) out.push({ ...span, uidHash: hash });
    return true;
  };

  // DTSTART is the first occurrence, then each RRULE's and RDATE's.
  occurrence(start);
  const windowEndWall = options.to + MAX_UTC_OFFSET;
  const windowStartWall = options.from - MAX_UTC_OFFSET - longest;
  for (const property of master.getAllProperties('rrule')) {
    const rule = property.getFirstValue();
    if (!(rule instanceof ICAL.Recur)) continue;
    const until = rule.until;
    rule.until = null;
    const untilKey = until ? (until.isDate ? undefined : until.zone?.tzid === 'UTC' ? wallOf(until) : start.zoner(wallOf(until))) : undefined;
    const untilDay = until?.isDate ? Math.floor(wallOf(until) / 86_400) : undefined;
    const iterator = boundedIterator(rule, master.getFirstPropertyValue('dtstart') as ICAL.Time, windowEndWall);
    for (let steps = 0; steps < SERIES_STEPS; steps++) {
      const next = iterator.next();
      if (!next) break;
      const moment: Moment = { ...start, wall: wallOf(next) };
      if (untilDay !== undefined && Math.floor(moment.wall / 86_400) > untilDay) break;
      if (untilKey !== undefined && unixOf(moment) > untilKey) break;
      if (moment.wall > windowEndWall) break;
      if (steps % STEP === 0) {
        checkTotal(out);
        yield;
      }
      if (moment.wall < windowStartWall) continue;
      if (!occurrence(moment)) break;
    }
  }
  for (const property of master.getAllProperties('rdate')) {
    const tzid = property.getParameter('tzid') as string | undefined;
    for (const value of property.getValues()) {
      if (value instanceof ICAL.Period) {
        const from = momentOf(value.start, tzid, zones);
        const own: Length = value.end ? { seconds: unixOf(momentOf(value.end, tzid, zones)) - unixOf(from) } : { seconds: value.duration!.toSeconds() };
        occurrence(from, own);
      } else if (value instanceof ICAL.Time) {
        occurrence(momentOf(value, tzid, zones));
      }
    }
  }
  // Overrides of occurrences the rule did not give here (moved in from outside the window, or of an excluded
  // one): each is an event of its own.
  let left = 0;
  for (const override of unmatched) {
    const span = loneSpan(override, zones);
    if (span && span.endAt > options.from && span.startAt < options.to) out.push({ ...span, uidHash: hash });
    if (++left % STEP === 0) yield;
  }
}

/** The busy periods of a VFREEBUSY. */
function freeBusySpans(component: ICAL.Component, zones: Zones, options: BusyOptions, out: BusyTime[]): void {
  const hash = uidHash(String(component.getFirstPropertyValue('uid') ?? 'vfreebusy'));
  for (const property of component.getAllProperties('freebusy')) {
    if (String(property.getParameter('fbtype') ?? 'BUSY').toUpperCase() === 'FREE') continue;
    for (const value of property.getValues()) {
      if (!(value instanceof ICAL.Period)) continue;
      const from = momentOf(value.start, undefined, zones);
      const startAt = unixOf(from);
      const endAt = value.end ? unixOf(momentOf(value.end, undefined, zones)) : startAt + value.duration!.toSeconds();
      if (endAt > options.from && startAt < options.to && endAt > startAt) out.push({ startAt, endAt, uidHash: hash });
    }
  }
}

/**
 * Reads the busy times of `texts` over the window, yielding between units of work so that a caller can give the
 * event loop back (`busyTimesSliced`). Sorted by start and end, duplicates removed. Throws CalendarDataError.
 */
export function* busySteps(texts: readonly string[], options: BusyOptions): Generator<void, BusyTime[]> {
  const indexed = yield* indexAll(texts, options.maxEvents ?? MAX_EVENTS);
  const zones = new Zones(options, indexed.vtimezones);
  const out: BusyTime[] = [];
  let work = 0;
  for (const [uid, parts] of indexed.groups) {
    work += parts.length;
    if (work >= STEP) {
      work = 0;
      checkTotal(out);
      yield;
    }
    if (/@planner$/i.test(uid)) continue; // planner's own feed, subscribed into the same calendar
    const group = yield* parseGroup(uid, parts);
    const hash = uidHash(uid);
    if (group.master && (group.master.hasProperty('rrule') || group.master.hasProperty('rdate'))) {
      yield* expandSeries(group, zones, options, hash, out);
      continue;
    }
    // A single event whose one occurrence was overridden (same start as the override's RECURRENCE-ID): the override.
    const overridden = new Set(group.overrides.map((override) => momentProperty(override, 'recurrence-id', zones)).filter((id) => id !== undefined).map(keyOf));
    const master = group.master && momentProperty(group.master, 'dtstart', zones);
    const replaced = master !== undefined && overridden.has(keyOf(master));
    for (const [index, component] of [...(group.master && !replaced ? [group.master] : []), ...group.overrides].entries()) {
      const span = loneSpan(component, zones);
      if (span && span.endAt > options.from && span.startAt < options.to && span.endAt > span.startAt) out.push({ ...span, uidHash: hash });
      if (index % STEP === STEP - 1) yield;
    }
  }
  for (const [index, part] of indexed.freebusy.entries()) {
    freeBusySpans(parseComponent(part), zones, options, out);
    if (index % STEP === STEP - 1) {
      checkTotal(out);
      yield;
    }
  }
  checkTotal(out);
  yield;
  out.sort(byBusyOrder);
  yield;
  return out.filter((time, index) => {
    const before = out[index - 1];
    return time.endAt > time.startAt && !(before && before.startAt === time.startAt && before.endAt === time.endAt && before.uidHash === time.uidHash);
  });
}

/** Reads the busy times of `texts` at once (tests, tools): `busySteps` run to its end. */
export function busyTimesOf(texts: readonly string[], options: BusyOptions): BusyTime[] {
  const steps = busySteps(texts, options);
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/**
 * Reads the busy times of `texts` like `busyTimesOf`, giving the event loop back whenever `budgetMs` have passed:
 * a sync in `planner serve` never holds requests up for long (issue 25: at most 20 ms at a time).
 */
export async function busyTimesSliced(texts: readonly string[], options: BusyOptions, budgetMs = 3): Promise<BusyTime[]> {
  const steps = busySteps(texts, options);
  let slice = performance.now();
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    if (performance.now() - slice >= budgetMs) {
      await new Promise((resolve) => setImmediate(resolve));
      slice = performance.now();
    }
  }
}

/**
 * Reads a calendar of one weekly event once, so that what ical.js and the time zones load on their first use (about
 * 15 ms here) is paid when `planner serve` starts, not in the middle of its first sync.
 */
export function warmBusyReader(zone: string): void {
  const text = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//planner//warm//EN', 'BEGIN:VEVENT', 'UID:warm', 'DTSTAMP:20260101T000000Z'];
  text.push(`DTSTART;TZID=${zone}:20260105T090000`, 'DURATION:PT1H', 'RRULE:FREQ=WEEKLY;COUNT=3', 'END:VEVENT', 'END:VCALENDAR', '');
  busyTimesOf([text.join('\r\n')], { zone, from: Date.UTC(2026, 0, 1) / 1000, to: Date.UTC(2026, 1, 1) / 1000 });
}

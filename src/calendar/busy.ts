/**
 * The busy times of a practitioner's calendar: iCalendar texts (one .ics, or the resources of a CalDAV
 * collection) read into the spans that block booking, over a window. Pure: no I/O, no clock.
 *
 * Busy is an event that is not `STATUS:CANCELLED` and not `TRANSP:TRANSPARENT` (`TENTATIVE` is busy), all-day events
 * alike, and the busy periods of a `VFREEBUSY` (all but `FBTYPE=FREE`). Recurrence as RFC 5545 means it: RRULE
 * (COUNT, UNTIL, the BY-parts) in the wall-clock time of its DTSTART's zone, RDATE, EXDATE and RECURRENCE-ID
 * overrides (moved, cancelled or made free), a RANGE=THISANDFUTURE override read as one occurrence's; an override
 * without its series (Google's free/busy-only export writes each occurrence so) is an event of its own. Each series
 * is expanded only up to the window's end, from a start moved forward by whole periods of its rule to just before the
 * window (a series since 1400 costs what one since last week does); what cannot be expanded in full (more than
 * SERIES_CAP occurrences in the window, a rule that runs out of steps) fails the read: it never frees a time.
 *
 * Bounded: every busy time is clipped to the window (an event until 9999 is the window's days, not millions
 * of rows), and MAX_BUSY_TIMES counts what is stored (a piece a day); of each component only the properties that
 * decide what blocks are parsed (a huge DESCRIPTION or attachment is skipped unread), at most
 * MAX_COMPONENT_CHARS of them; EXDATE and RDATE lists are read by planner a value at a time, so that 580,000 of them
 * give the event loop back like any other work; a VTIMEZONE is turned into its offsets over the window only, from
 * starts moved forward like a series', at most ZONE_STEPS steps and MAX_ZONE_CHANGES changes; and a read stops after
 * MAX_STEPS steps or READ_WORK_MS of work in all, with one line.
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
import { type BusySpan, byBusyOrder } from '../domain/blocking.ts';
import { SECONDS_PER_DAY } from '../domain/days.ts';
import { isPlannerUid, referenceOfUid } from '../domain/event-uid.ts';
import { isTimeZone, MAX_UTC_OFFSET, type OffsetTable, offsetTable, wallToUnixCompatible } from '../domain/zone.ts';
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
  /** The window, Unix seconds: only busy times that end after `from` and begin before `to`, clipped to it. */
  from: number;
  to: number;
  /** The most VEVENT and VFREEBUSY components over all texts (default MAX_EVENTS); above it the read fails. */
  maxEvents?: number;
  /**
   * Collects the events planner wrote for bookings (UID `<reference>@planner`), as the calendar holds them now, into
   * this array: never busy, but compared with what planner wrote (someone may have moved or removed one in an app).
   */
  planner?: PlannerEvent[];
}

/** An event planner wrote for a booking, as a calendar holds it: its start and end (Unix seconds), cancelled or not. */
export interface PlannerEvent {
  reference: string;
  startAt: number;
  endAt: number;
  /** STATUS:CANCELLED (a calendar app's way to cancel an event it keeps). */
  cancelled: boolean;
}

/** The most events a calendar may hold. */
export const MAX_EVENTS = 20_000;
/** The most occurrences of one series within the window (a daily series over two years is 730); above it the read fails. */
export const SERIES_CAP = 5_000;
/** The most steps one series' RRULE is iterated (those before the window count): a rule that needs more fails the read. */
const SERIES_STEPS = 200_000;
/**
 * The most busy times one read may give, counted as they are stored: a piece a day (store/busy-times.ts), so an event
 * of a week counts seven. A 5,000-event calendar with 200 weekly series gives 15,300 in a year; above it the read
 * fails, and its sorts and writes stay short.
 */
export const MAX_BUSY_TIMES = 50_000;
/**
 * The most candidates ical.js may test for one next occurrence of a rule. Its iterator has no bound of its own for
 * DAILY and shorter rules whose BY-parts never match (`FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30` never ends) or match
 * rarely (`FREQ=SECONDLY;BYMONTH=12` tests every second until December): one call would hold the event loop for
 * good. Past the window planner stops such a rule; within it, above this many, the read fails with one line.
 */
const CANDIDATES_PER_OCCURRENCE = 10_000;
/** The most characters of a component's parsed properties (DTSTART, RRULE, …; EXDATE and RDATE are read apart). */
export const MAX_COMPONENT_CHARS = 64 * 1024;
/** The most steps of one VTIMEZONE's rules (their starts moved to a year before the window: a real zone needs a few). */
const ZONE_STEPS = 5_000;
/** The most changes of offset one VTIMEZONE may make within the window (a real zone makes two a year). */
export const MAX_ZONE_CHANGES = 100;
/** The most steps of one read, all together: occurrences, candidates of zones, EXDATE and RDATE values. */
export const MAX_STEPS = 2_000_000;
/** The most work one sliced read may do (the time its slices held the event loop, all together). */
export const READ_WORK_MS = 20_000;
/** Units of work (components, occurrences) between two chances to give the event loop back. */
const STEP = 25;
/** Lines of a calendar's text scanned between two chances to give the event loop back. */
const LINES_PER_STEP = 2_000;

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

/** The steps of one read, all together: past MAX_STEPS the read fails (a calendar built to cost time). */
class Budget {
  private steps = 0;
  charge(steps = 1): void {
    if ((this.steps += steps) > MAX_STEPS) {
      throw new CalendarDataError(
        `the calendar needs more than ${MAX_STEPS.toLocaleString('en')} steps to read (repeat rules, time zones, excluded dates): planner reads at most that many`,
      );
    }
  }
}

/** The range of instants a read converts exactly: the window and three days either side. */
function zoneRange(options: BusyOptions): { from: number; to: number } {
  return { from: options.from - 3 * SECONDS_PER_DAY, to: options.to + 3 * SECONDS_PER_DAY };
}

/**
 * The zones of one read: IANA zones with the runtime's rules (a table around the window), VTIMEZONEs by the offsets
 * their rules give around the window (worked out beforehand, `customZones`). A wall time outside the range of a
 * custom zone's table takes the offset nearest to it.
 */
class Zones {
  private readonly iana = new Map<string, Zoner>();
  private readonly byTzid = new Map<string, Zoner>();
  private readonly options: BusyOptions;
  private readonly custom: Map<string, OffsetTable>;
  readonly practice: Zoner;

  constructor(options: BusyOptions, custom: Map<string, OffsetTable>) {
    this.options = options;
    this.custom = custom;
    this.practice = this.ianaZoner(options.zone);
  }

  private ianaZoner(zone: string): Zoner {
    let zoner = this.iana.get(zone);
    if (zoner) return zoner;
    const { from, to } = zoneRange(this.options);
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
    const table = this.custom.get(tzidName(tzid));
    if (iana) zoner = this.ianaZoner(iana);
    else if (table) zoner = (wall) => wallToUnixCompatible(table, wall);
    else zoner = this.practice;
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
  return momentOfWall(wallOf(time), time.isDate, utc, tzid, zones);
}

function momentOfWall(wall: number, date: boolean, utc: boolean, tzid: string | undefined, zones: Zones): Moment {
  const floating = !date && !utc && tzid === undefined;
  return { wall, date, utc, floating, zoner: date || utc ? zones.practice : zones.of(tzid) };
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
  if (end)
    return start.date
      ? { days: Math.round((end.wall - start.wall) / 86_400) }
      : { seconds: unixOf(end) - unixOf(start) };
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

/**
 * An EXDATE or RDATE property of a component as its lines' pieces (folded lines without their leading blank), read
 * by planner a value at a time (`eachDateValue`): a list of 580,000 dates is never one step.
 */
interface DateLine {
  name: 'exdate' | 'rdate';
  pieces: string[];
}

/** One component's properties that decide what blocks, as iCalendar text, its date lists, and the line it begins on. */
interface Part {
  text: string;
  dates: DateLine[];
  line: number;
}

/** A component parsed, with its date lists still as text. */
interface Parsed {
  component: ICAL.Component;
  dates: DateLine[];
}

/** Everything of one UID: its series (if any) and its overrides or lone occurrences. */
interface Group {
  uid: string;
  master?: Parsed;
  overrides: ICAL.Component[];
}

/**
 * The calendars cut into their components, not yet parsed: the events grouped by UID (read from the text), the
 * free/busy blocks, the time zones. A group's components are parsed only when its turn comes and dropped after it,
 * so that what stays alive is text, and the garbage collector's pauses stay short (parsing all 20,000 events first
 * kept them alive and made its pauses 10 to 18 ms).
 */
interface Indexed {
  groups: Map<string, Part[]>;
  freebusy: Part[];
  vtimezones: Map<string, Part>;
}

/** Parses one component's text; a text ical.js cannot read is a one-line error naming the line, not its content. */
function parseComponent(part: Part): ICAL.Component {
  try {
    return new ICAL.Component(ICAL.parse(part.text) as unknown as unknown[]);
  } catch {
    throw new CalendarDataError(
      `the calendar has a component planner cannot read (from line ${part.line}): it is not valid iCalendar`,
    );
  }
}

/**
 * The properties of each component kind that decide what blocks: only these are parsed (a long DESCRIPTION, an
 * attachment, attendees and alarms are skipped unread). A VTIMEZONE is kept whole: its STANDARD and DAYLIGHT parts.
 */
const KEPT: Record<string, ReadonlySet<string>> = {
  VEVENT: new Set([
    'UID',
    'DTSTART',
    'DTEND',
    'DURATION',
    'RRULE',
    'RECURRENCE-ID',
    'STATUS',
    'TRANSP',
    'EXDATE',
    'RDATE',
  ]),
  VFREEBUSY: new Set(['UID', 'DTSTART', 'DTEND', 'FREEBUSY']),
};

/** The property name a content line begins with, upper-cased (`DTSTART;TZID=…:…` → `DTSTART`). */
function propertyName(head: string): string {
  return /^[A-Z0-9-]*/.exec(head)![0];
}

/**
 * Reads one text's lines into its top-level components (`read`, a line at a time), keeping only what decides what
 * blocks, and files each into `indexed`: events by UID, free/busy blocks, time zones. Bounded: at most `maxEvents`
 * components over every text (`counted`), MAX_COMPONENT_CHARS of one component's kept lines but its date lists.
 */
class ComponentReader {
  private depth = 0;
  private kind = '';
  private firstLine = 0;
  private lineNumber = 0;
  private kept: string[] = [];
  private size = 0;
  private dates: DateLine[] = [];
  private uid: string | undefined;
  /** The kept property being read: its name and its lines' pieces (folded lines follow it). */
  private property: { name: string; pieces: string[] } | undefined;

  private readonly indexed: Indexed;
  private readonly counted: { events: number };
  private readonly maxEvents: number;

  constructor(indexed: Indexed, counted: { events: number }, maxEvents: number) {
    this.indexed = indexed;
    this.counted = counted;
    this.maxEvents = maxEvents;
  }

  /** Reads the line of `text` from `start` to `end` (its LF); returns true when it ended a component that was kept. */
  read(text: string, start: number, end: number): boolean {
    this.lineNumber++;
    const first = text.charCodeAt(start);
    if (first === 32 || first === 9) {
      this.folded(text.slice(start + 1, text.charCodeAt(end - 1) === 13 ? end - 1 : end));
      return false;
    }
    this.finish();
    const head = text.slice(start, Math.min(end, start + 40)).toUpperCase();
    if (head.startsWith('BEGIN:') && ++this.depth === 2) {
      this.begin(head.slice(6).trim());
      return false;
    }
    if (head.startsWith('END:') && --this.depth === 1) return this.end();
    if (this.depth >= 2) this.keep(text, head, start, end);
    return false;
  }

  /** The text has ended: throws when it ended inside a component (cut off, or not iCalendar). */
  done(): void {
    this.finish();
    if (this.depth !== 0)
      throw new CalendarDataError(
        'the calendar ends in the middle of a component: it was cut off, or is not valid iCalendar',
      );
  }

  private tooLarge(): CalendarDataError {
    return new CalendarDataError(
      `the calendar has a component whose dates and rules take more than ${MAX_COMPONENT_CHARS / 1024} KiB (from line ${this.firstLine}): planner reads at most that much of one`,
    );
  }

  /** A folded line: the rest of the property before it (when it is kept). */
  private folded(piece: string): void {
    const property = this.property;
    if (!property) return;
    const dated = property.name === 'EXDATE' || property.name === 'RDATE';
    if (!dated && (this.size += piece.length) > MAX_COMPONENT_CHARS) throw this.tooLarge();
    property.pieces.push(piece);
  }

  /** The property read so far is whole: a date list kept apart, any other kept as its line (the UID noted). */
  private finish(): void {
    const property = this.property;
    if (!property) return;
    if (property.name === 'EXDATE' || property.name === 'RDATE')
      this.dates.push({ name: property.name === 'EXDATE' ? 'exdate' : 'rdate', pieces: property.pieces });
    else {
      const line = property.pieces.join('');
      if (property.name === 'UID' && this.uid === undefined) this.uid = line.replace(/^[^:]*:/, '').trim();
      this.kept.push(line);
    }
    this.property = undefined;
  }

  private begin(kind: string): void {
    this.kind = kind;
    this.firstLine = this.lineNumber;
    this.kept = [];
    this.size = 0;
    this.dates = [];
    this.uid = undefined;
  }

  /** A top-level component ended: an event, free/busy block or time zone is filed; returns whether one was. */
  private end(): boolean {
    const kind = this.kind;
    if (kind !== 'VEVENT' && kind !== 'VFREEBUSY' && kind !== 'VTIMEZONE') return false;
    if (kind !== 'VTIMEZONE' && ++this.counted.events > this.maxEvents) {
      throw new CalendarDataError(
        `the calendar holds more than ${this.maxEvents.toLocaleString('en')} events: planner reads at most that many`,
      );
    }
    const part: Part = {
      text: [`BEGIN:${kind}`, ...this.kept, `END:${kind}`].join('\r\n'),
      dates: this.dates,
      line: this.firstLine,
    };
    if (kind === 'VTIMEZONE') {
      const tzid = /^TZID[;:](?:[^:\r\n]*:)?(.*)$/im.exec(part.text)?.[1];
      if (tzid !== undefined && !this.indexed.vtimezones.has(tzidName(tzid)))
        this.indexed.vtimezones.set(tzidName(tzid), part);
    } else if (kind === 'VFREEBUSY') this.indexed.freebusy.push(part);
    else groupOf(this.indexed, this.uid ?? '').push(part);
    return true;
  }

  /**
   * A line inside a component: a VTIMEZONE's every line (its STANDARD and DAYLIGHT parts); of an event or free/busy
   * block, only its own properties that decide what blocks (not those of an alarm inside it).
   */
  private keep(text: string, head: string, start: number, end: number): void {
    const { kind } = this;
    const name = propertyName(head);
    const own = this.depth === 2 && !head.startsWith('BEGIN:') && !head.startsWith('END:');
    if (kind !== 'VTIMEZONE' && !(own && (KEPT[kind]?.has(name) ?? false))) return;
    const piece = text.slice(start, text.charCodeAt(end - 1) === 13 ? end - 1 : end);
    const dated = kind === 'VEVENT' && (name === 'EXDATE' || name === 'RDATE');
    if (!dated && (this.size += piece.length + 2) > MAX_COMPONENT_CHARS) throw this.tooLarge();
    this.property = { name: dated ? name : kind === 'VTIMEZONE' ? '' : name, pieces: [piece] };
  }
}

/**
 * Cuts the texts into their top-level components, keeping only what decides what blocks, and groups them; yields
 * every LINES_PER_STEP lines and every STEP components (the caller gives the event loop back).
 */
function* indexAll(texts: readonly string[], maxEvents: number): Generator<void, Indexed> {
  const indexed: Indexed = { groups: new Map(), freebusy: [], vtimezones: new Map() };
  const counted = { events: 0 };
  let lines = 0;
  for (const text of texts) {
    if (!/^\uFEFF?\s*BEGIN:VCALENDAR/i.test(text))
      throw new CalendarDataError('the calendar is not iCalendar data (it does not begin with BEGIN:VCALENDAR)');
    const reader = new ComponentReader(indexed, counted, maxEvents);
    for (let position = 0; position < text.length; ) {
      let end = text.indexOf('\n', position);
      if (end < 0) end = text.length;
      const start = position;
      position = end + 1;
      if (++lines % LINES_PER_STEP === 0) yield;
      if (reader.read(text, start, end) && counted.events % STEP === 0) yield;
    }
    reader.done();
  }
  return indexed;
}

function groupOf(indexed: Indexed, uid: string): Part[] {
  let parts = indexed.groups.get(uid);
  if (!parts) indexed.groups.set(uid, (parts = []));
  return parts;
}

/** Parses the components of one UID into its series (if any) and its overrides or lone occurrences, yielding between them. */
function* parseGroup(uid: string, parts: readonly Part[]): Generator<void, Group> {
  const group: Group = { uid, overrides: [] };
  for (const [index, part] of parts.entries()) {
    const component = parseComponent(part);
    if (component.hasProperty('recurrence-id')) group.overrides.push(component);
    else if (!group.master) group.master = { component, dates: part.dates };
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
 * occurrence. ical.js tests each candidate in `check_contracting_rules`, which is wrapped here; each candidate is a
 * step of the read's budget.
 */
function boundedIterator(
  rule: ICAL.Recur,
  dtstart: ICAL.Time,
  endWall: number,
  budget: Budget,
): { next(): ICAL.Time | null } {
  type Iterator = { next(): ICAL.Time | null; last: ICAL.Time; check_contracting_rules(): boolean };
  const unreadable = (error: unknown) =>
    error instanceof CalendarDataError
      ? error
      : new CalendarDataError(
          `an event has a repeat rule planner cannot read (RRULE:${rule.toString()}): ${String((error as Error)?.message ?? error).split('\n', 1)[0]}`,
        );
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
      throw new CalendarDataError(
        `an event repeats by a rule planner cannot expand in reasonable time (RRULE:${rule.toString()}): change or remove that event`,
      );
    }
    budget.charge();
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

/** The length of each FREQ shorter than a month, in seconds of wall time. */
const PERIOD_SECONDS: Partial<Record<string, number>> = {
  SECONDLY: 1,
  MINUTELY: 60,
  HOURLY: 3600,
  DAILY: 86_400,
  WEEKLY: 7 * 86_400,
};

/**
 * Returns `dtstart` moved forward by whole periods of `rule` (FREQ × INTERVAL) to the last such start at or before
 * `targetWall`, when that leaves every occurrence from there on as it was: a rule without COUNT (COUNT counts from
 * the first start), and for MONTHLY and YEARLY a start on a day every month has (the 29th to 31st stay). The
 * occurrences of a rule depend on its start only through the periods counted from it and the start's own fields
 * that the BY-parts leave, and both stay. The moved start itself may not be an occurrence: the caller reads only
 * what comes after `targetWall`.
 */
function movedStart(rule: ICAL.Recur, dtstart: ICAL.Time, targetWall: number): ICAL.Time {
  const startWall = wallOf(dtstart);
  if (rule.count || targetWall <= startWall) return dtstart;
  const interval = Math.max(1, rule.interval || 1);
  const seconds = PERIOD_SECONDS[rule.freq];
  let wall: number;
  if (seconds !== undefined) {
    const period = seconds * interval;
    wall = startWall + Math.floor((targetWall - startWall) / period) * period;
  } else {
    if (dtstart.day > 28 || (rule.freq !== 'MONTHLY' && rule.freq !== 'YEARLY')) return dtstart;
    const months = (rule.freq === 'YEARLY' ? 12 : 1) * interval;
    const target = new Date(targetWall * 1000);
    const elapsed = (target.getUTCFullYear() - dtstart.year) * 12 + target.getUTCMonth() + 1 - dtstart.month - 1; // a month less: stays before the target
    const shift = Math.floor(Math.max(0, elapsed) / months) * months;
    wall =
      Date.UTC(dtstart.year, dtstart.month - 1 + shift, dtstart.day, dtstart.hour, dtstart.minute, dtstart.second) /
      1000;
  }
  if (wall <= startWall) return dtstart;
  const moved = dtstart.clone();
  moved.fromData({ ...wallFields(wall), isDate: dtstart.isDate, zone: dtstart.zone });
  return moved;
}

/** A date value of an EXDATE or RDATE, read by planner: its start, and for a PERIOD its end or duration. */
interface DateValue {
  start: Moment;
  /** Seconds, for a PERIOD. */
  seconds?: number;
}

const DATE_VALUE = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z?))?$/;

/** Returns the wall time, whether a day, and whether UTC, of one DATE or DATE-TIME value; undefined if it is neither. */
function readDateText(text: string): { wall: number; date: boolean; utc: boolean } | undefined {
  const match = DATE_VALUE.exec(text.trim());
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second, z] = match;
  const wall =
    Date.UTC(
      Number(year),
      Number(month) - 1,
      Number(day),
      Number(hour ?? 0),
      Number(minute ?? 0),
      Number(second ?? 0),
    ) / 1000;
  return { wall, date: hour === undefined, utc: z === 'Z' };
}

/** The parameters of a property's name part (`EXDATE;TZID="W. Europe Standard Time";VALUE=DATE`), by upper-cased name. */
function parametersOf(head: string): Map<string, string> {
  const parameters = new Map<string, string>();
  for (const match of head.matchAll(/;([^=;:"]+)=("[^"]*"|[^;:"]*)/g))
    parameters.set(match[1]!.trim().toUpperCase(), match[2]!.replace(/^"|"$/g, ''));
  return parameters;
}

/**
 * Reads an EXDATE or RDATE property a value at a time, calling `visit` with each (a step of the read's budget each),
 * and yields every STEP × 40 values: its text is never handled in one step, whatever its length.
 */
/** Where a property's name part ends: its first colon outside quotes; -1 while none came. */
function nameEnd(head: string): number {
  let quoted = false;
  for (let index = 0; index < head.length; index++) {
    const code = head.charCodeAt(index);
    if (code === 34) quoted = !quoted;
    else if (code === 58 && !quoted) return index;
  }
  return -1;
}

function* eachDateValue(
  line: DateLine,
  zones: Zones,
  budget: Budget,
  partLine: number,
  visit: (value: DateValue) => void,
): Generator<void, void> {
  const unreadable = () =>
    new CalendarDataError(
      `an event has a date planner cannot read in its ${line.name.toUpperCase()} (from line ${partLine})`,
    );
  let head = '';
  let parameters: Map<string, string> | undefined;
  let tzid: string | undefined;
  let carry = '';
  let count = 0;
  const read = (text: string) => {
    if (++count % (STEP * 40) === 0) budget.charge(STEP * 40);
    const [startText, endText] = text.split('/');
    const start = readDateText(startText ?? '');
    if (!start) throw unreadable();
    const moment = momentOfWall(start.wall, start.date, start.utc, tzid, zones);
    if (endText === undefined) return visit({ start: moment });
    const end = readDateText(endText);
    if (end)
      return visit({
        start: moment,
        seconds: unixOf(momentOfWall(end.wall, end.date, end.utc, tzid, zones)) - unixOf(moment),
      });
    try {
      return visit({ start: moment, seconds: ICAL.Duration.fromString(endText.trim()).toSeconds() });
    } catch {
      throw unreadable();
    }
  };
  for (const piece of line.pieces) {
    let text = piece;
    if (!parameters) {
      head += piece;
      const colon = nameEnd(head);
      if (colon < 0) {
        if (head.length > 4096) throw unreadable();
        continue;
      }
      parameters = parametersOf(head.slice(0, colon));
      tzid = parameters.get('TZID');
      text = head.slice(colon + 1);
    }
    text = carry + text;
    let from = 0;
    for (let comma = text.indexOf(',', from); comma >= 0; comma = text.indexOf(',', from)) {
      read(text.slice(from, comma));
      from = comma + 1;
      if (count % (STEP * 40) === 0) yield;
    }
    carry = text.slice(from);
    if (carry.length > 4096) throw unreadable();
  }
  if (!parameters) throw unreadable();
  if (carry.trim() !== '') read(carry);
}

/** Pushes the part of `span` within the window into `out`, and counts what it will be stored as (a piece a day). */
class Collected {
  readonly out: BusyTime[] = [];
  private pieces = 0;
  private readonly from: number;
  private readonly to: number;

  constructor(options: BusyOptions) {
    this.from = options.from;
    this.to = options.to;
  }

  /** Whether a span meets the window at all. */
  meets(span: { startAt: number; endAt: number }): boolean {
    return span.endAt > this.from && span.startAt < this.to && span.endAt > span.startAt;
  }

  push(span: { startAt: number; endAt: number }, uidHash: string): void {
    if (!this.meets(span)) return;
    const startAt = Math.max(span.startAt, this.from);
    const endAt = Math.min(span.endAt, this.to);
    this.out.push({ startAt, endAt, uidHash });
    this.pieces += Math.floor((endAt - 1) / SECONDS_PER_DAY) - Math.floor(startAt / SECONDS_PER_DAY) + 1;
    if (this.pieces > MAX_BUSY_TIMES) {
      throw new CalendarDataError(
        `the calendar gives more than ${MAX_BUSY_TIMES.toLocaleString('en')} busy times in the schedule's window (an event of several days counts once a day): planner reads at most that many`,
      );
    }
  }
}

/** Thrown when a series cannot be expanded in full: the read fails rather than leave times free under it. */
function cannotExpand(rule: string, why: string): CalendarDataError {
  return new CalendarDataError(
    `an event repeats by a rule planner cannot expand in full (${rule}): ${why}; change or remove that event`,
  );
}

/** Expands a series over the window, with its overrides, into `out`. Yields every STEP occurrences. */
function* expandSeries(
  group: Group,
  zones: Zones,
  options: BusyOptions,
  hash: string,
  out: Collected,
  budget: Budget,
  partLine: number,
): Generator<void, void> {
  const master = group.master!.component;
  const start = momentProperty(master, 'dtstart', zones);
  if (!start) return;
  const length = lengthOf(master, start, zones);
  const longest = 'days' in length ? length.days * 86_400 : Math.max(0, length.seconds);
  const busy = isBusy(master);
  const wall = { from: options.from - MAX_UTC_OFFSET - longest, to: options.to + MAX_UTC_OFFSET };
  const { overrides, unmatched } = yield* overridesOf(group, zones, start);
  const dates = yield* seriesDates(group.master!.dates, zones, budget, partLine, start, wall);
  const emitted = new Set<number>();
  let count = 0;
  let rule = 'RDATE';
  const occurrence = (moment: Moment, own?: Length): void => {
    const key = keyOf(moment);
    if (emitted.has(key)) return;
    emitted.add(key);
    if (dates.excluded.has(key) || dates.excludedDays.has(Math.floor(moment.wall / 86_400))) return;
    const override = overrides.get(key);
    if (override) {
      unmatched.delete(override);
      const span = loneSpan(override, zones);
      if (span) out.push(span, hash);
      return;
    }
    const span = spanOf(moment, own ?? length);
    if (!out.meets(span)) return;
    if (++count > SERIES_CAP)
      throw cannotExpand(
        rule,
        `it gives more than ${SERIES_CAP.toLocaleString('en')} occurrences in the schedule's window`,
      );
    if (busy) out.push(span, hash);
  };

  // DTSTART is the first occurrence, then each RRULE's and RDATE's.
  occurrence(start);
  for (const property of master.getAllProperties('rrule')) {
    const value = property.getFirstValue();
    if (!(value instanceof ICAL.Recur)) continue;
    rule = `RRULE:${value.toString()}`;
    yield* ruleOccurrences(value, master, start, wall, budget, occurrence);
  }
  rule = 'RDATE';
  for (const [index, value] of dates.added.entries()) {
    occurrence(value.start, value.seconds === undefined ? undefined : { seconds: value.seconds });
    if (index % STEP === STEP - 1) yield;
  }
  // Overrides of occurrences the rule did not give here (moved in from outside the window, or of an excluded
  // one): each is an event of its own.
  let left = 0;
  for (const override of unmatched) {
    const span = loneSpan(override, zones);
    if (span) out.push(span, hash);
    if (++left % STEP === 0) yield;
  }
}

/** A series' overrides by the start they replace (RECURRENCE-ID, read in the series' zone), all unmatched so far. */
function* overridesOf(
  group: Group,
  zones: Zones,
  start: Moment,
): Generator<void, { overrides: Map<number, ICAL.Component>; unmatched: Set<ICAL.Component> }> {
  const overrides = new Map<number, ICAL.Component>();
  const unmatched = new Set<ICAL.Component>();
  for (const [index, override] of group.overrides.entries()) {
    const id = momentProperty(override, 'recurrence-id', zones);
    if (id) overrides.set(keyOf(inZoneOf(id, start)), override);
    unmatched.add(override);
    if (index % STEP === STEP - 1) yield;
  }
  return { overrides, unmatched };
}

/**
 * A series' EXDATE and RDATE values that can meet an occurrence within the window (`wall`, with a day's margin for
 * the zones): the starts excluded, the days excluded (a DATE EXDATE of a series with times), the dates added.
 */
function* seriesDates(
  lines: readonly DateLine[],
  zones: Zones,
  budget: Budget,
  partLine: number,
  start: Moment,
  wall: { from: number; to: number },
): Generator<void, { excluded: Set<number>; excludedDays: Set<number>; added: DateValue[] }> {
  const excluded = new Set<number>();
  const excludedDays = new Set<number>();
  const added: DateValue[] = [];
  for (const line of lines) {
    yield* eachDateValue(line, zones, budget, partLine, (value) => {
      if (value.start.wall + (value.seconds ?? 0) < wall.from - 86_400 || value.start.wall > wall.to + 86_400) return;
      if (line.name === 'rdate') added.push(value);
      else if (value.start.date && !start.date) excludedDays.add(Math.floor(value.start.wall / 86_400));
      else excluded.add(keyOf(inZoneOf(value.start, start)));
    });
  }
  return { excluded, excludedDays, added };
}

/**
 * Calls `occurrence` with each start one RRULE gives within the window (`wall`), from a start moved forward to just
 * before it; its UNTIL read in the series' zone (a DATE one as a last day). At most SERIES_STEPS steps.
 */
function* ruleOccurrences(
  value: ICAL.Recur,
  master: ICAL.Component,
  start: Moment,
  wall: { from: number; to: number },
  budget: Budget,
  occurrence: (moment: Moment) => void,
): Generator<void, void> {
  const rule = `RRULE:${value.toString()}`;
  const until = value.until;
  value.until = null;
  const untilKey = until
    ? until.isDate
      ? undefined
      : until.zone?.tzid === 'UTC'
        ? wallOf(until)
        : start.zoner(wallOf(until))
    : undefined;
  const untilDay = until?.isDate ? Math.floor(wallOf(until) / 86_400) : undefined;
  const from = movedStart(value, master.getFirstPropertyValue('dtstart') as ICAL.Time, wall.from);
  const iterator = boundedIterator(value, from, wall.to, budget);
  for (let steps = 0; ; steps++) {
    if (steps >= SERIES_STEPS)
      throw cannotExpand(
        rule,
        `it needs more than ${SERIES_STEPS.toLocaleString('en')} steps to reach the end of the schedule's window`,
      );
    const next = iterator.next();
    if (!next) return;
    const moment: Moment = { ...start, wall: wallOf(next) };
    if (untilDay !== undefined && Math.floor(moment.wall / 86_400) > untilDay) return;
    if (untilKey !== undefined && unixOf(moment) > untilKey) return;
    if (moment.wall > wall.to) return;
    if (steps % STEP === 0) yield;
    if (moment.wall < wall.from) continue;
    occurrence(moment);
  }
}

/** The busy periods of a VFREEBUSY. */
function freeBusySpans(component: ICAL.Component, zones: Zones, out: Collected): void {
  const hash = uidHash(String(component.getFirstPropertyValue('uid') ?? 'vfreebusy'));
  for (const property of component.getAllProperties('freebusy')) {
    if (String(property.getParameter('fbtype') ?? 'BUSY').toUpperCase() === 'FREE') continue;
    for (const value of property.getValues()) {
      if (!(value instanceof ICAL.Period)) continue;
      const from = momentOf(value.start, undefined, zones);
      const startAt = unixOf(from);
      const endAt = value.end ? unixOf(momentOf(value.end, undefined, zones)) : startAt + value.duration!.toSeconds();
      out.push({ startAt, endAt }, hash);
    }
  }
}

/** Returns the seconds of a TZOFFSETFROM or TZOFFSETTO value, or undefined. */
function offsetSeconds(value: unknown): number | undefined {
  return value instanceof ICAL.UtcOffset ? value.toSeconds() : undefined;
}

/**
 * Works out the offsets of a VTIMEZONE around the window (zoneRange): each STANDARD and DAYLIGHT part's onsets (its
 * DTSTART, RRULE and RDATE, wall times in its TZOFFSETFROM), the last before the range and those within it. A rule
 * starts a year before the range (movedStart), so a part written from 1601 costs a few steps; a rule that still
 * needs more than ZONE_STEPS, or a zone that changes more than MAX_ZONE_CHANGES times within the range, fails the
 * read with one line (no real zone does either).
 */
/** A change of a custom zone's offset: the instant, the offset before and after. */
interface Onset {
  at: number;
  before: number;
  after: number;
}

/**
 * Adds to `onsets` each change one STANDARD or DAYLIGHT part of a VTIMEZONE makes up to the end of `range`: its
 * DTSTART, each start of its RRULE from a start moved to a year before the window, each RDATE. `count.steps` counts
 * the zone's steps (at most ZONE_STEPS in all).
 */
function* observanceOnsets(
  observance: ICAL.Component,
  range: { from: number; to: number },
  budget: Budget,
  count: { steps: number },
  unreadable: (why: string, limit?: boolean) => CalendarDataError,
  onsets: Onset[],
): Generator<void, void> {
  const before = offsetSeconds(observance.getFirstPropertyValue('tzoffsetfrom'));
  const after = offsetSeconds(observance.getFirstPropertyValue('tzoffsetto'));
  const dtstart = observance.getFirstPropertyValue('dtstart');
  if (before === undefined || after === undefined || !(dtstart instanceof ICAL.Time))
    throw unreadable('has a part without DTSTART, TZOFFSETFROM or TZOFFSETTO: it is not valid iCalendar', false);
  const onset = (wall: number) => {
    const at = wall - before;
    if (at <= range.to) onsets.push({ at, before, after });
  };
  onset(wallOf(dtstart));
  const targetWall = range.from - 400 * SECONDS_PER_DAY;
  for (const property of observance.getAllProperties('rrule')) {
    const rule = property.getFirstValue();
    if (!(rule instanceof ICAL.Recur)) continue;
    const iterator = boundedIterator(rule, movedStart(rule, dtstart, targetWall), range.to + MAX_UTC_OFFSET, budget);
    for (let next = iterator.next(); next; next = iterator.next()) {
      if (++count.steps > ZONE_STEPS)
        throw unreadable(`changes by a rule that needs more than ${ZONE_STEPS.toLocaleString('en')} steps`);
      onset(wallOf(next));
      if (count.steps % STEP === 0) yield;
    }
  }
  for (const property of observance.getAllProperties('rdate')) {
    for (const value of property.getValues()) {
      if (++count.steps > ZONE_STEPS) throw unreadable(`lists more than ${ZONE_STEPS.toLocaleString('en')} changes`);
      if (value instanceof ICAL.Time) onset(wallOf(value));
      else if (value instanceof ICAL.Period) onset(wallOf(value.start));
    }
  }
}

function* customZone(part: Part, tzid: string, options: BusyOptions, budget: Budget): Generator<void, OffsetTable> {
  const range = zoneRange(options);
  // `limit`: the zone asks more than planner reads (said so); else it is not valid, as `why` says.
  const unreadable = (why: string, limit = true) =>
    new CalendarDataError(
      `the calendar's time zone "${tzid}" ${why}${limit ? ': planner reads at most that much of a time zone' : ''}`,
    );
  const onsets: Onset[] = [];
  const component = parseComponent(part);
  const count = { steps: 0 };
  for (const observance of [...component.getAllSubcomponents('standard'), ...component.getAllSubcomponents('daylight')])
    yield* observanceOnsets(observance, range, budget, count, unreadable, onsets);
  onsets.sort((a, b) => a.at - b.at);
  const last = onsets.findLastIndex((onset) => onset.at <= range.from);
  const within = onsets.slice(last + 1);
  if (within.length > MAX_ZONE_CHANGES)
    throw unreadable(`changes its offset more than ${MAX_ZONE_CHANGES} times in the schedule's window`);
  const first = last >= 0 ? onsets[last]!.after : (onsets[0]?.before ?? 0);
  return {
    starts: [-Infinity, ...within.map((onset) => onset.at)],
    offsets: [first, ...within.map((onset) => onset.after)],
  };
}

/** The offsets of every VTIMEZONE whose TZID names no zone planner knows by name (those are read with the runtime's rules). */
function* customZones(
  indexed: Indexed,
  options: BusyOptions,
  budget: Budget,
): Generator<void, Map<string, OffsetTable>> {
  const tables = new Map<string, OffsetTable>();
  for (const [tzid, part] of indexed.vtimezones) {
    if (ianaZoneOf(tzid)) continue;
    tables.set(tzid, yield* customZone(part, tzid, options, budget));
    yield;
  }
  return tables;
}

/**
 * Reads the busy times of `texts` over the window, yielding between units of work so that a caller can give the
 * event loop back (`busyTimesSliced`). Clipped to the window, sorted by start and end, duplicates removed. Throws
 * CalendarDataError.
 */
export function* busySteps(texts: readonly string[], options: BusyOptions): Generator<void, BusyTime[]> {
  const budget = new Budget();
  const indexed = yield* indexAll(texts, options.maxEvents ?? MAX_EVENTS);
  const zones = new Zones(options, yield* customZones(indexed, options, budget));
  const collected = new Collected(options);
  let work = 0;
  for (const [uid, parts] of indexed.groups) {
    work += parts.length;
    if (work >= STEP) {
      work = 0;
      yield;
    }
    // Planner's own events (its feed, or its bookings written into the same calendar) never block; those of
    // bookings are kept as they are now, for the caller to compare with what it wrote.
    if (isPlannerUid(uid)) {
      const reference = options.planner && referenceOfUid(uid);
      if (reference) plannerEvent(reference, yield* parseGroup(uid, parts), zones, options.planner!);
      continue;
    }
    const group = yield* parseGroup(uid, parts);
    const hash = uidHash(uid);
    const master = group.master;
    if (master && (master.component.hasProperty('rrule') || master.dates.some((line) => line.name === 'rdate')))
      yield* expandSeries(group, zones, options, hash, collected, budget, parts[0]!.line);
    else yield* loneSpans(group, zones, hash, collected);
  }
  for (const [index, part] of indexed.freebusy.entries()) {
    freeBusySpans(parseComponent(part), zones, collected);
    if (index % STEP === STEP - 1) yield;
  }
  yield;
  const out = collected.out;
  out.sort(byBusyOrder);
  yield;
  return out.filter((time, index) => {
    const before = out[index - 1];
    return !(
      before &&
      before.startAt === time.startAt &&
      before.endAt === time.endAt &&
      before.uidHash === time.uidHash
    );
  });
}

/** Keeps the event planner wrote for booking `reference` (its group's master) as the calendar holds it. */
function plannerEvent(reference: string, group: Group, zones: Zones, into: PlannerEvent[]): void {
  const event = group.master?.component;
  const start = event && momentProperty(event, 'dtstart', zones);
  if (!event || !start) return;
  const cancelled = String(event.getFirstPropertyValue('status') ?? '').toUpperCase() === 'CANCELLED';
  into.push({ reference, ...spanOf(start, lengthOf(event, start, zones)), cancelled });
}

/**
 * The busy times of a group that is no series: its event and its overrides, each its own span; a single event whose
 * one occurrence was overridden (the same start as the override's RECURRENCE-ID) counts as the override.
 */
function* loneSpans(group: Group, zones: Zones, hash: string, collected: Collected): Generator<void, void> {
  const overridden = new Set(
    group.overrides
      .map((override) => momentProperty(override, 'recurrence-id', zones))
      .filter((id) => id !== undefined)
      .map(keyOf),
  );
  const master = group.master && momentProperty(group.master.component, 'dtstart', zones);
  const replaced = master !== undefined && overridden.has(keyOf(master));
  for (const [index, component] of [
    ...(group.master && !replaced ? [group.master.component] : []),
    ...group.overrides,
  ].entries()) {
    const span = loneSpan(component, zones);
    if (span) collected.push(span, hash);
    if (index % STEP === STEP - 1) yield;
  }
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
 * a sync in `planner serve` never holds requests up for long (at most 20 ms at a time). A read that has
 * worked READ_WORK_MS in all fails with one line (the limits above keep a real calendar far below it).
 */
export async function busyTimesSliced(
  texts: readonly string[],
  options: BusyOptions,
  budgetMs = 3,
  workMs = READ_WORK_MS,
): Promise<BusyTime[]> {
  const steps = busySteps(texts, options);
  let slice = performance.now();
  let worked = 0;
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    const now = performance.now();
    if (now - slice >= budgetMs) {
      worked += now - slice;
      if (worked > workMs)
        throw new CalendarDataError(
          `reading the calendar took more than ${workMs / 1000} s of work: planner stops there`,
        );
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
  const text = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//planner//warm//EN',
    'BEGIN:VEVENT',
    'UID:warm',
    'DTSTAMP:20260101T000000Z',
  ];
  text.push(
    `DTSTART;TZID=${zone}:20260105T090000`,
    'DURATION:PT1H',
    'RRULE:FREQ=WEEKLY;COUNT=3',
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  );
  busyTimesOf([text.join('\r\n')], { zone, from: Date.UTC(2026, 0, 1) / 1000, to: Date.UTC(2026, 1, 1) / 1000 });
}

/**
 * Builds a realistic installation for the benchmark in a fresh file: 10 schedules with 4 reasons each
 * (15–90 minutes), weekday hours with a lunch break and Saturday mornings, a 365-day look-ahead, a 15-minute step,
 * one schedule with capacity 3, closures, and about 50,000 future bookings filling roughly half of the slots.
 * The same seed gives the same data, laid out from the day the benchmark runs.
 */
import { createContext } from '../src/app/context.ts';
import { switchApi } from '../src/app/practice/api.ts';
import { addClosure, setHours } from '../src/app/practice/hours.ts';
import { initInstallation } from '../src/app/practice/init.ts';
import { addReason } from '../src/app/practice/reasons.ts';
import { addSchedule } from '../src/app/practice/schedules.ts';
import { dayText, isoWeekday, SECONDS_PER_DAY } from '../src/domain/days.ts';
import { parseRanges } from '../src/domain/hours.ts';
import { offsetAt, offsetTable, wallToUnix } from '../src/domain/zone.ts';
import { valueOrInvalid } from '../src/errors.ts';
import { openStore } from '../src/store/db.ts';

export const ZONE = 'Europe/Berlin';
const WEEKDAY_HOURS = '08:00-12:00,13:00-18:00';
const SATURDAY_HOURS = '09:00-12:00';
const DURATIONS = [15, 30, 60, 90];
const WEIGHTS = [0.85, 0.1, 0.03, 0.02]; // most visits are short: the mean is about 19 minutes

/** mulberry32: a small, fast, seeded PRNG (the same seed gives the same sequence). */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface GenerateOptions {
  file: string;
  now: Date;
  seed?: number;
  schedules?: number;
  daysAhead?: number;
  /** Chance that a free 15-minute start gets a booking while the days are filled (0.47: about half the time). */
  fill?: number;
  /** Bookings in the past (before today), to grow the file without touching the look-ahead. */
  pastBookings?: number;
  /** Gives each future booking its 24 h reminder in the outbox (pending, due 86,400 s before the start). */
  reminders?: boolean;
}

export interface Generated {
  file: string;
  bookings: number;
  pastBookings: number;
  /** Share of the open 15-minute starts that a booking covers, per capacity unit. */
  takenShare: number;
  busiestDay: string;
  elapsedMs: number;
}

/** Builds the installation and returns what it made. */
export function generate(options: GenerateOptions): Generated {
  const started = performance.now();
  const rng = random(options.seed ?? 42);
  const scheduleCount = options.schedules ?? 10;
  const daysAhead = options.daysAhead ?? 365;
  const fill = options.fill ?? 0.47;
  const store = openStore(options.file);
  const ctx = createContext(store, () => options.now);
  const nowUnix = Math.floor(options.now.getTime() / 1000);
  const table = offsetTable(ZONE, nowUnix - 800 * SECONDS_PER_DAY, nowUnix + (daysAhead + 2) * SECONDS_PER_DAY);
  const today = Math.floor((nowUnix + offsetAt(table, nowUnix)) / SECONDS_PER_DAY);

  initInstallation(ctx, {
    practiceName: 'Benchmark Practice',
    timeZone: ZONE,
    notifyEmail: 'desk@bench.example',
    locale: 'en',
  });
  const schedules: { id: number; reasons: { id: number; minutes: number }[]; capacity: number; closed: Set<number> }[] =
    [];
  store.tx(() => {
    for (let index = 0; index < scheduleCount; index++) {
      const capacity = index === 1 ? 3 : 1;
      const id = addSchedule(ctx, {
        name: `Practitioner ${index + 1}`,
        daysAhead,
        noticeMinutes: 0,
        stepMinutes: 15,
        capacity,
      });
      const reasons = DURATIONS.map((minutes) => ({
        id: addReason(ctx, id, { name: `Visit ${minutes} min`, durationMinutes: minutes }),
        minutes,
      }));
      setHours(ctx, id, 'mon-fri', WEEKDAY_HOURS);
      setHours(ctx, id, 'sat', SATURDAY_HOURS);
      // A week of holiday and one single day, at places that differ per schedule.
      const holiday = today + 30 + Math.floor(rng() * 300);
      const single = today + 10 + Math.floor(rng() * 340);
      addClosure(ctx, id, dayText(holiday), dayText(holiday + 6), 'holiday');
      addClosure(ctx, id, dayText(single), undefined, 'training');
      const closed = new Set<number>([single]);
      for (let day = holiday; day <= holiday + 6; day++) closed.add(day);
      schedules.push({ id, reasons, capacity, closed });
    }
    switchApi(ctx, true);
  });

  const hours = {
    weekday: valueOrInvalid(parseRanges(WEEKDAY_HOURS)),
    saturday: valueOrInvalid(parseRanges(SATURDAY_HOURS)),
  };
  const pickReason = (reasons: { id: number; minutes: number }[]) => {
    let roll = rng();
    for (let index = 0; index < WEIGHTS.length; index++) {
      roll -= WEIGHTS[index]!;
      if (roll < 0) return reasons[index]!;
    }
    return reasons[0]!;
  };

  const customers = 5000;
  let bookings = 0;
  let openStarts = 0;
  let takenStarts = 0;
  const perDay = new Map<number, number>();
  store.tx(() => {
    const insertCustomer = store.db.prepare(
      "INSERT INTO customers (email_key, email, first_name, last_name, created_at) VALUES (?, ?, 'Bench', ?, '2026-01-01T00:00:00Z')",
    );
    for (let index = 1; index <= customers; index++)
      insertCustomer.run(`c${index}@bench.example`, `c${index}@bench.example`, `Customer ${index}`);
    const insert = store.db.prepare(
      `INSERT INTO bookings (reference, schedule_id, reason_id, customer_id, start_at, end_at, submission, source, created_at)
       VALUES (?, ?, ?, ?, ?, ?, '{}', 'api', '2026-01-01T00:00:00Z')`,
    );
    const remind = store.db.prepare(
      `INSERT INTO outbox (booking_id, kind, recipient, subject, body, next_attempt_at, retry_from, created_at)
       VALUES (?, 'reminder', ?, 'Reminder', '{"text":"Reminder\\n","html":"<p>Reminder</p>","ics":""}', ?, ?, '2026-01-01T00:00:00Z')`,
    );
    const book = (schedule: number, reason: { id: number; minutes: number }, startAt: number) => {
      const customer = 1 + Math.floor(rng() * customers);
      const id = insert.run(
        `B${String(++bookings).padStart(10, '0')}`,
        schedule,
        reason.id,
        customer,
        startAt,
        startAt + reason.minutes * 60,
      ).lastInsertRowid;
      if (options.reminders && startAt > nowUnix)
        remind.run(id, `c${customer}@bench.example`, startAt - SECONDS_PER_DAY, startAt - SECONDS_PER_DAY);
    };
    for (const schedule of schedules) {
      for (let day = today + 1; day <= today + daysAhead; day++) {
        const weekday = isoWeekday(day);
        const ranges = weekday <= 5 ? hours.weekday : weekday === 6 ? hours.saturday : [];
        if (schedule.closed.has(day)) continue;
        for (const range of ranges) {
          openStarts += ((range.end - range.start) / 15) * schedule.capacity;
          // Each capacity unit is filled on its own, so the capacity-3 schedule holds up to three at once.
          for (let unit = 0; unit < schedule.capacity; unit++) {
            let minute = range.start;
            while (minute < range.end) {
              const reason = pickReason(schedule.reasons);
              if (rng() < fill && minute + reason.minutes <= range.end) {
                const startAt = wallToUnix(table, day * SECONDS_PER_DAY + minute * 60);
                if (startAt !== undefined) {
                  book(schedule.id, reason, startAt);
                  perDay.set(day * 100 + schedule.id, (perDay.get(day * 100 + schedule.id) ?? 0) + 1);
                  takenStarts += reason.minutes / 15;
                }
                minute += reason.minutes;
              } else minute += 15;
            }
          }
        }
      }
    }
    // Past bookings: history that grows the file but lies outside every look-ahead.
    const past = options.pastBookings ?? 0;
    for (let index = 0; index < past; index++) {
      const schedule = schedules[index % schedules.length]!;
      const day = today - 1 - Math.floor(rng() * 700);
      const startAt = wallToUnix(table, day * SECONDS_PER_DAY + (8 * 60 + 15 * Math.floor(rng() * 36)) * 60)!;
      book(schedule.id, schedule.reasons[0]!, startAt);
    }
  });
  store.close();
  let busiest = 0;
  let busiestDay = dayText(today + 1);
  for (const [key, count] of perDay) {
    if (key % 100 === 1 && count > busiest) {
      busiest = count;
      busiestDay = dayText(Math.floor(key / 100));
    }
  }
  return {
    file: options.file,
    bookings: bookings - (options.pastBookings ?? 0),
    pastBookings: options.pastBookings ?? 0,
    takenShare: takenStarts / openStarts,
    busiestDay,
    elapsedMs: performance.now() - started,
  };
}

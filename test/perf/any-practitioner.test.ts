/**
 * The shape of "any practitioner" (issue 40): the free times over ten schedules read each schedule's input and the
 * bookings of the whole window once (the same number of statements for one day as for 30), and the choice of a
 * practitioner reads the booked minutes of every candidate in one statement, whatever the bookings.
 */
import { describe, expect, it } from 'vitest';
import { createAnyBooking, freeTimesAny } from '../../src/app/bookings/any-practitioner.ts';
import { createContext } from '../../src/app/context.ts';
import { type Store } from '../../src/store/db.ts';
import { practice } from '../practice.ts';

const NOW = new Date('2026-06-01T06:00:00Z'); // a Monday, 08:00 in Berlin

/** `store` with every execution of a statement counted, and which SQL texts ran. */
function counting(store: Store) {
  let count = 0;
  const texts: string[] = [];
  const counted: Store = {
    ...store,
    sql: (text) => {
      const statement = store.sql(text);
      return new Proxy(statement, {
        get(target, property) {
          const value = Reflect.get(target, property);
          if (typeof value !== 'function') return value;
          return ['all', 'get', 'run', 'iterate'].includes(String(property))
            ? (...args: unknown[]) => {
                count++;
                texts.push(text);
                return value.apply(target, args);
              }
            : value.bind(target);
        },
      });
    },
  };
  return { store: counted, count: () => count, texts, reset: () => ((count = 0), (texts.length = 0)) };
}

describe('the shape of slots any and bookings add any (guards against per-day or per-booking queries)', () => {
  it('ten schedules over 30 days take as many statements as over one day; the choice reads minutes once', () => {
    const ten = Array.from({ length: 10 }, (_, i) => i + 1);
    const {
      store: raw,
      ctx: setup,
      schedules: ids,
      reasons,
    } = practice({
      clock: { now: NOW },
      schedules: ten.map((n) => ({ name: `S${n}`, daysAhead: 60, stepMinutes: 15 })),
      reasons: [{ schedules: ten }],
    });
    const reason = reasons[0]!;
    const { store, count, texts, reset } = counting(raw);
    const ctx = createContext(store, () => NOW);

    reset();
    const one = freeTimesAny(ctx, reason, { fromDay: '2026-06-02', days: 1 });
    const oneDay = count();
    reset();
    const month = freeTimesAny(ctx, reason, { fromDay: '2026-06-02', days: 30 });
    expect(month.days).toHaveLength(30);
    expect(month.days[0]!.slots[0]).toEqual({
      local: '2026-06-02 08:00:00',
      startAt: expect.any(Number),
      scheduleIds: ids,
    });
    expect(one.days[0]!.slots).toEqual(month.days[0]!.slots);
    expect(count()).toBe(oneDay);
    expect(oneDay).toBeLessThanOrEqual(10 * 10); // a handful per schedule, none per day

    // Fill the day with bookings, then book "any": the minutes of every candidate in one statement.
    for (let n = 0; n < 31; n++)
      createAnyBooking(
        setup,
        {
          reasonId: reason,
          slot: `2026-06-02 ${String(8 + Math.floor(n / 4)).padStart(2, '0')}:${['00', '15', '30', '45'][n % 4]}:00`,
          submission: { first_name: 'A', last_name: `L${n}`, email: `a${n}@p.example` },
        },
        'admin',
      );
    reset();
    const made = createAnyBooking(
      ctx,
      {
        reasonId: reason,
        slot: '2026-06-02 17:00:00',
        submission: { first_name: 'B', last_name: 'B', email: 'b@p.example' },
      },
      'admin',
    );
    expect(made.scheduleId).toBe(2); // 31 spread by the rule: 1 has 120 minutes that day, the others 90
    expect(texts.filter((text) => text.includes('SUM(end_at - start_at)'))).toHaveLength(1);
    raw.close();
  });
});

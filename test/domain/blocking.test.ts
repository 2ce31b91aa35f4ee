import { describe, expect, it } from 'vitest';
import {
  appointmentEnd,
  blockedSpan,
  buffersOf,
  daysTouchedBy,
  LONGEST_BLOCK_SECONDS,
  startsReaching,
} from '../../src/domain/blocking.ts';
import { dayText } from '../../src/domain/days.ts';
import { offsetTable } from '../../src/domain/zone.ts';

const T = Date.UTC(2031, 2, 3, 10, 0, 0) / 1000; // 10:00 UTC
const at = (hhmm: string) => T + (Number(hhmm.slice(0, 2)) - 10) * 3600 + Number(hhmm.slice(3, 5)) * 60;

describe('the time a booking blocks', () => {
  const reason = { durationMinutes: 45, bufferBeforeMinutes: 15, bufferAfterMinutes: 10 };

  it('is its appointment and its reason’s buffers, in seconds', () => {
    expect(buffersOf(reason)).toEqual({ before: 900, after: 600 });
    expect(appointmentEnd(at('10:00'), reason)).toBe(at('10:45'));
    expect(blockedSpan(at('10:00'), at('10:45'), buffersOf(reason))).toEqual({ from: at('09:45'), to: at('10:55') });
    expect(blockedSpan(at('10:00'), at('10:30'), { before: 0, after: 0 })).toEqual({
      from: at('10:00'),
      to: at('10:30'),
    });
  });

  it('is never longer than a day-long appointment with the longest buffer on each side', () => {
    expect(LONGEST_BLOCK_SECONDS).toBe(86_400 + 2 * 240 * 60);
  });

  it.each([
    // changed span           reason (duration, before, after)   earliest  latest
    [['10:00', '10:30'], { durationMinutes: 45, bufferBeforeMinutes: 15, bufferAfterMinutes: 10 }, '09:05', '10:45'],
    [['10:00', '10:30'], { durationMinutes: 30, bufferBeforeMinutes: 0, bufferAfterMinutes: 0 }, '09:30', '10:30'],
    [['09:45', '10:55'], { durationMinutes: 60, bufferBeforeMinutes: 0, bufferAfterMinutes: 30 }, '08:15', '10:55'],
  ] as const)('a change of %j reaches the starts of %j from %s to %s', ([from, to], of, earliest, latest) => {
    expect(startsReaching({ from: at(from), to: at(to) }, of)).toEqual({ earliest: at(earliest), latest: at(latest) });
  });

  it('reaches every start whose blocked time meets the change, and the two that only touch it', () => {
    const changed = { from: at('10:00'), to: at('10:30') };
    const { earliest, latest } = startsReaching(changed, reason);
    const meets = (start: number) => {
      const span = blockedSpan(start, appointmentEnd(start, reason), buffersOf(reason));
      return span.from < changed.to && span.to > changed.from;
    };
    for (let start = at('08:00'); start <= at('12:00'); start += 60) {
      if (meets(start)) expect(start >= earliest && start <= latest, `start ${(start - T) / 60} min`).toBe(true);
    }
    expect(meets(earliest)).toBe(false); // it only touches: 09:05 + 45 + 10 min ends at 10:00
    expect(meets(earliest + 60)).toBe(true);
    expect(meets(latest)).toBe(false); // 10:45 − 15 min begins at 10:30
    expect(meets(latest - 60)).toBe(true);
  });
});

describe('daysTouchedBy: the local days whose starts a change reaches (Europe/Berlin, UTC+2 in June)', () => {
  const utc = (time: string, day: string) => Date.parse(`${day}T${time}:00Z`) / 1000;
  /** The zone's offsets, known from the start of one day to the start of another. */
  const known = (first: string, last: string) => {
    const [from, to] = [utc('00:00', first), utc('00:00', last)];
    return { table: offsetTable('Europe/Berlin', from, to), from, to };
  };
  const june = known('2026-06-01', '2026-07-01');
  const july = known('2026-07-01', '2026-08-01');
  const reason = { durationMinutes: 45, bufferBeforeMinutes: 15, bufferAfterMinutes: 10 };

  it.each([
    // the change (UTC) and its day; the local days touched; the offsets known
    ['08:00', '08:30', '2026-06-10', ['2026-06-10', '2026-06-10'], june], // 10:00-10:30 local: starts 09:05-10:45
    ['22:10', '22:40', '2026-06-10', ['2026-06-10', '2026-06-11'], june], // 00:10 local on the 11th: starts from 23:15 on the 10th
    ['23:00', '23:30', '2026-06-10', ['2026-06-11', '2026-06-11'], june], // 01:00 local on the 11th: the UTC day is the 10th
    ['08:00', '08:30', '2026-06-10', ['2026-06-09', '2026-06-10'], july], // offsets unknown there: widened by 14 hours
  ] as const)('a change of %s-%sZ on %s touches %j', (from, to, day, expected, offsets) => {
    const { first, last } = daysTouchedBy({ from: utc(from, day), to: utc(to, day) }, reason, offsets);
    expect([dayText(first), dayText(last)]).toEqual(expected);
  });
});

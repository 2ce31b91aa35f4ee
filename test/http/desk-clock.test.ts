/** The desk's clock of a day's page (offsets read once for the span) writes every time as Intl does, across a change. */
import { describe, expect, it } from 'vitest';
import { clockOf } from '../../src/http/desk-visit.ts';

describe('clockOf over a span', () => {
  it.each([
    ['Europe/Berlin', Date.UTC(2027, 2, 27)], // the spring change
    ['Europe/Berlin', Date.UTC(2027, 9, 30)], // the autumn change
    ['Australia/Lord_Howe', Date.UTC(2027, 3, 3)], // half an hour
    ['Asia/Kathmandu', Date.UTC(2027, 0, 1)], // a quarter-hour offset
  ])('%s from %d: every 5 minutes of three days alike', (zone, startMs) => {
    const from = startMs / 1000;
    const to = from + 3 * 86_400;
    const fast = clockOf(zone, { from, to });
    const slow = clockOf(zone);
    for (let at = from; at < to; at += 300) expect(fast(at), new Date(at * 1000).toISOString()).toBe(slow(at));
  });
});

import { describe, expect, it } from 'vitest';
import { createReplyCache, REPLY_CACHE_ENTRIES, reply } from '../../src/http/handle.ts';

/**
 * Issue 17: what the server keeps between requests is bounded. The cache of free days has its bound tested in
 * test/app/days-cache.test.ts (DAYS_CACHE_ENTRIES pairs, each at most its window of days); the per-generation cache
 * of schedules, reasons and forms answers is tested here.
 */
describe('the reply cache is bounded', () => {
  it('keeps at most REPLY_CACHE_ENTRIES answers, nothing for a build that throws, and one per key per generation', () => {
    let generation = 0;
    let builds = 0;
    const cached = createReplyCache(() => generation);
    for (let n = 0; n < 5 * REPLY_CACHE_ENTRIES; n++) cached(`reasons:${n}`, () => (builds++, reply({ data: [n] })));
    expect(cached.size()).toBeLessThanOrEqual(REPLY_CACHE_ENTRIES);
    expect(REPLY_CACHE_ENTRIES).toBe(1000);
    const before = cached.size();
    expect(() =>
      cached('reasons:missing', () => {
        throw new Error('schedule 99 does not exist');
      }),
    ).toThrow();
    expect(cached.size()).toBe(before);
    builds = 0;
    cached('schedules', () => (builds++, reply({ data: [] })));
    cached('schedules', () => (builds++, reply({ data: [] })));
    expect(builds).toBe(1);
    generation++;
    cached('schedules', () => (builds++, reply({ data: [] })));
    expect(builds).toBe(2);
  });
});

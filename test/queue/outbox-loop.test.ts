import { describe, expect, it } from 'vitest';
import { type OutboxQueue, type QueueItem, startOutboxLoop } from '../../src/queue/outbox-loop.ts';

describe('the outbox loop (mail, webhooks, calendar writes)', () => {
  it('leases each item from the moment it is taken, not from the start of the pass', async () => {
    let clockMs = 1_000_000_000;
    const claims: { id: number; now: number; until: number }[] = [];
    const items: QueueItem[] = [1, 2, 3].map((id) => ({ id, attempts: 0, retryFrom: 0 }));
    let passes = 0;
    let done: () => void = () => {};
    const finished = new Promise<void>((resolve) => {
      done = resolve;
    });
    const queue: OutboxQueue<QueueItem> = {
      what: 'test queue',
      leaseSeconds: 60,
      due: () => (passes++ === 0 ? items : []),
      claim: (id, now, until) => {
        claims.push({ id, now, until });
        return true;
      },
      attempt: async () => {
        clockMs += 200_000; // a slow receiver: 200 s an item, longer than the lease
        return { delivered: true };
      },
      sent: (id) => {
        if (id === 3) done();
      },
      failed: () => {},
      retry: () => {},
      describe: (item) => `item ${item.id}`,
    };
    const pump = startOutboxLoop(queue, { log: () => {}, nowMs: () => clockMs, pollMs: 60_000 });
    pump.kick();
    await finished;
    await pump.stop();
    const start = 1_000_000;
    expect(claims).toEqual([
      { id: 1, now: start, until: start + 60 },
      { id: 2, now: start + 200, until: start + 260 },
      { id: 3, now: start + 400, until: start + 460 },
    ]);
  });
});

/**
 * Erasing a customer's personal data: on request (`planner customer erase`), and on schedule (the
 * server anonymises bookings that ended more than `retention` months ago). Both keep each booking's skeleton, so
 * that counts and statistics stay true, and leave an audit entry that names bookings by id and reference only.
 */

import { parsePlainInt } from '../../domain/checks.ts';
import { localWithZone } from '../../domain/dates.ts';
import { invalid } from '../../errors.ts';
import { type Pump, startPump } from '../../queue/pump.ts';
import { BUSY_TIMEOUT_MS } from '../../store/db.ts';
import {
  bookingsToAnonymise,
  eraseBookings,
  eraseCustomersWithoutData,
  futureReferencesOf,
  lastErasedAt,
  rewriteFile,
  truncateWal,
  unerasedBookingsOf,
  type WalOutcome,
} from '../../store/personal-data.ts';
import { setRetention } from '../../store/settings.ts';
import { emitCustomerErased } from '../../webhooks/events.ts';
import { cancelBooking } from '../bookings/lifecycle.ts';
import { type AppContext, unixSeconds } from '../context.ts';
import { requireConfigured } from '../practice/configured.ts';
import { recordAudit } from './audit.ts';
import { customerOf } from './customers.ts';

export interface Erased {
  customerId: number;
  cancelled: string[];
  erased: string[];
  /**
   * Whether the customer is told of those cancellations by mail: false with `notify` false, and when mail is not set
   * up (then no mail is written: one would wait in the outbox, with their name and address, for good).
   */
  told: boolean;
  /**
   * The WAL after the erase: 'busy' when another process's read kept it from being emptied (a copy stays there until
   * the server empties it); 'replicated' when Litestream replicates the file (the WAL is Litestream's to rewrite).
   */
  wal: WalOutcome;
  /**
   * Why the file could not be rewritten now (`rewriteFile`: another process's write held it, or the disk was full),
   * so that a copy of the erased data may stay in its unused space until the server's hourly pass; undefined: done.
   */
  notRewritten: string | undefined;
}

/**
 * Erases the customer `key` names (an e-mail address or a booking reference): cancels their future bookings (with
 * the usual mails and webhooks; without the mails when `notify` is false or mail is not set up), then replaces their
 * personal data everywhere (store/personal-data.ts), in one transaction; then empties the WAL. The cancellation
 * mails it writes keep their data only until they are sent or fail for good (`scrubIfErased`).
 */
export function eraseCustomer(ctx: AppContext, key: string, options: { notify: boolean }): Erased {
  const settings = requireConfigured(ctx);
  const customerId = customerOf(ctx, key);
  // Without SMTP settings a mail is never sent, so it would never lose its data: none is written.
  const told = options.notify && settings.mailUrl !== null;
  const now = ctx.now();
  const at = now.toISOString();
  const result = ctx.store.tx(() => {
    const future = futureReferencesOf(ctx.store, customerId, unixSeconds(now));
    for (const reference of future)
      cancelBooking(ctx, reference, { notify: told, reason: '', actor: 'admin', others: 'going' });
    const ids = unerasedBookingsOf(ctx.store, customerId);
    const erased = eraseBookings(ctx.store, ids, at, at);
    eraseCustomersWithoutData(ctx.store, [customerId]);
    recordAudit(ctx, {
      actor: 'admin',
      action: 'customer erase',
      detail: `customer ${customerId}: ${erased.length} booking(s) erased (${erased.join(', ')}), ${future.length} cancelled`,
    });
    emitCustomerErased(
      ctx.store,
      { customerId, bookings: ids.map((id, index) => ({ id, reference: erased[index]! })) },
      unixSeconds(now),
      at,
    );
    return { customerId, cancelled: future, erased, told };
  });
  const notRewritten = rewriteFile(ctx.store, BUSY_TIMEOUT_MS);
  return { ...result, notRewritten, wal: truncateWal(ctx.store, BUSY_TIMEOUT_MS) };
}

/** Returns `retention set`'s months (1 to 600), or null for `off`; else a clear error. */
export function checkRetention(text: string): number | null {
  if (text.trim() === 'off') return null;
  const months = parsePlainInt(text.trim());
  if (months === undefined || months < 1 || months > 600)
    throw invalid(`retention takes a whole number of months from 1 to 600, or off (got "${text}")`);
  return months;
}

export function changeRetention(ctx: AppContext, months: number | null): void {
  requireConfigured(ctx);
  setRetention(ctx.store, months);
  recordAudit(ctx, { actor: 'admin', action: 'retention set', detail: months === null ? 'off' : `${months} months` });
}

/** The instant `months` calendar months before `now` (UTC). */
export function monthsBefore(now: Date, months: number): Date {
  const cut = new Date(now);
  cut.setUTCMonth(cut.getUTCMonth() - months);
  return cut;
}

/**
 * The retention pass: anonymises the bookings that ended more than the retention's months ago and are not erased
 * yet, as an erase does (without cancelling: they are over), at most `limit` a pass; returns how many.
 */
export const RETENTION_BATCH = 1000;

export function applyRetention(ctx: AppContext, limit = RETENTION_BATCH): number {
  const settings = ctx.settings();
  if (settings.retentionMonths === null || settings.retentionMonths === undefined) return 0;
  const now = ctx.now();
  const at = now.toISOString();
  const before = unixSeconds(monthsBefore(now, settings.retentionMonths));
  const rows = bookingsToAnonymise(ctx.store, before, limit);
  if (rows.length === 0) return 0;
  ctx.store.tx(() => {
    const erased = eraseBookings(
      ctx.store,
      rows.map((row) => row.id),
      at,
      at,
    );
    eraseCustomersWithoutData(ctx.store, [...new Set(rows.map((row) => row.customerId))]);
    recordAudit(ctx, {
      actor: 'server',
      action: 'retention',
      detail: `${erased.length} booking(s) anonymised, ended before ${localWithZone(new Date(before * 1000), settings.timeZone ?? 'UTC')}: ${erased.join(', ')}`,
    });
  });
  // If another process writes or reads now, the server's next hourly pass rewrites the file and empties the WAL.
  rewriteFile(ctx.store);
  truncateWal(ctx.store);
  return rows.length;
}

/** How often the server applies the retention (`planner retention set`): once a day, and once at start. */
export const RETENTION_EVERY_MS = 86_400_000;
/** How often the server looks whether the retention is due, or the WAL holds a copy of erased data: hourly. */
export const PERSONAL_DATA_POLL_MS = 3_600_000;

/**
 * The personal-data worker of `planner serve`, beside the mail, webhook and calendar workers: hourly and at
 * start, not kicked by bookings, it applies the retention once a day, and empties the WAL when a booking was erased
 * since it last did (an erase that met another process's read could not).
 */
export function startRetention(
  ctx: AppContext,
  options: { log: (line: string) => void; refresh: () => unknown },
): Pump {
  let retainedAt = 0;
  let emptiedFor = '';
  return startPump(
    async () => {
      options.refresh();
      let more = false;
      if (ctx.now().getTime() - retainedAt >= RETENTION_EVERY_MS) {
        const anonymised = applyRetention(ctx);
        if (anonymised > 0)
          options.log(
            `planner: retention: ${anonymised} booking(s) that ended more than ${ctx.settings().retentionMonths} months ago anonymised`,
          );
        more = anonymised === RETENTION_BATCH;
        if (!more) retainedAt = ctx.now().getTime();
      }
      const erasedAt = lastErasedAt(ctx.store);
      if (erasedAt > emptiedFor && rewriteFile(ctx.store) === undefined && truncateWal(ctx.store) !== 'busy')
        emptiedFor = erasedAt;
      return more;
    },
    { pollMs: PERSONAL_DATA_POLL_MS, log: options.log, what: 'retention' },
  );
}

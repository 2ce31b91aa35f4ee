/**
 * The audit log, written through one wrapper: a use case that changes data in a way worth a
 * detail (an erase, the retention, a change of it) records its one entry in its own transaction (`recordAudit`), and
 * a CLI command that changed data is recorded once it succeeded (`auditCommand`), unless its use case recorded the
 * entry already: one entry per command, with its detail when there is one. Entries name bookings by id and reference
 * only, never personal data; a command's arguments (which may hold it) are never recorded.
 */
import { localToUnix } from '../../domain/zone.ts';
import { type AuditActor, type AuditEntry, auditLog, insertAudit, osUser } from '../../store/audit.ts';
import type { AppContext } from '../context.ts';
import { requireConfigured } from '../practice/configured.ts';

export type { AuditEntry } from '../../store/audit.ts';

/** The contexts whose command has its entry already (a use case recorded it with its detail). */
const recorded = new WeakSet<AppContext>();

/**
 * Records what a use case did, in the caller's transaction: `actor` 'admin' (with the system user who ran the
 * command) or 'server'. A command that records so gets no second entry from `auditCommand`.
 */
export function recordAudit(
  ctx: AppContext,
  entry: {
    actor: Extract<AuditActor, 'admin' | 'server'>;
    action: string;
    detail: string;
    bookingId?: number;
    reference?: string;
  },
): void {
  insertAudit(ctx.store, {
    at: ctx.now().toISOString(),
    actor: entry.actor,
    osUser: entry.actor === 'admin' ? osUser() : null,
    action: entry.action,
    bookingId: entry.bookingId ?? null,
    reference: entry.reference ?? null,
    detail: entry.detail,
  });
  if (entry.actor === 'admin') recorded.add(ctx);
}

/** Records that the admin's command `action` (`bookings cancel`) changed data, unless its use case recorded it already. */
export function auditCommand(ctx: AppContext, action: string): void {
  if (!recorded.has(ctx))
    insertAudit(ctx.store, {
      at: ctx.now().toISOString(),
      actor: 'admin',
      osUser: osUser(),
      action,
      bookingId: null,
      reference: null,
      detail: '',
    });
}

/**
 * Returns the log from the local day `fromDay` (`YYYY-MM-DD`, in the practice's zone) on, else of the last 30 days,
 * oldest first, with every change of a booking by whoever made it; and the zone, in which a person reads its times.
 */
export function readAudit(ctx: AppContext, fromDay?: string): { entries: AuditEntry[]; timeZone: string } {
  const { timeZone } = requireConfigured(ctx);
  const from = fromDay === undefined ? ctx.now().getTime() - 30 * 86_400_000 : localToUnix(fromDay, 0, timeZone) * 1000;
  return { entries: auditLog(ctx.store, new Date(from).toISOString()), timeZone };
}

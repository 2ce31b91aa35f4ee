/** The audit log: who changed what. Entries name bookings by id and reference only, never personal data. */
import { userInfo } from 'node:os';
import type { Store } from './db.ts';

/** The operating-system user who ran the command ('' where the system cannot tell). */
export function osUser(): string {
  try {
    return userInfo().username;
  } catch {
    return '';
  }
}

/**
 * Who: the CLI's admin, the API, a customer (the pages), the server (the retention), a person at the front desk
 * (`staff`, with their name), or unknown (a change made before planner recorded who).
 */
export type AuditActor = 'admin' | 'api' | 'customer' | 'server' | 'staff' | 'unknown';

export interface AuditEntry {
  at: string;
  actor: AuditActor;
  osUser: string | null;
  action: string;
  bookingId: number | null;
  reference: string | null;
  detail: string;
  /** Actor 'staff': the person at the desk (their id, and name and role when read back); else absent or null. */
  staffId?: number | null;
  staffName?: string | null;
  staffRole?: string | null;
}

export function insertAudit(store: Store, entry: AuditEntry): void {
  store
    .sql(
      'INSERT INTO audit_log (at, actor, os_user, action, booking_id, reference, detail, staff_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    )
    .run(
      entry.at,
      entry.actor,
      entry.osUser,
      entry.action,
      entry.bookingId,
      entry.reference,
      entry.detail,
      entry.staffId ?? null,
    );
}

/**
 * The log from `from` (ISO instant) on, oldest first: the entries written for commands, exports and erasures, with
 * every change of a booking (made, moved, cancelled) from its history, by whoever made it (the API, the page, the CLI).
 */
export function auditLog(store: Store, from: string): AuditEntry[] {
  return store
    .sql(
      `SELECT a.at, a.actor, a.os_user AS osUser, a.action, a.booking_id AS bookingId, a.reference, a.detail,
         a.staff_id AS staffId, p.name AS staffName, p.role AS staffRole
       FROM audit_log a LEFT JOIN staff p ON p.id = a.staff_id WHERE a.at >= ?
       UNION ALL
       SELECT e.at, coalesce(e.actor, 'unknown'), NULL, 'booking ' || e.kind, e.booking_id, b.reference, '',
         e.staff_id, p.name, p.role
       FROM booking_events e JOIN bookings b ON b.id = e.booking_id LEFT JOIN staff p ON p.id = e.staff_id
       WHERE e.at >= ?
       ORDER BY 1, 4`,
    )
    .all(from, from) as unknown as AuditEntry[];
}

/**
 * The people at the front desk (migration 19): who they are, their schedules, their enrolment links and sessions.
 * Every secret is stored as a hash: an enrolment token's and a session identifier's SHA-256 (256 random bits each, so
 * a fast hash suffices), a password's Argon2id (app/staff/).
 */
import { createHash } from 'node:crypto';
import type { StaffRole } from '../domain/staff.ts';
import type { Store } from './db.ts';

export interface StaffRow {
  id: number;
  email: string;
  name: string;
  role: StaffRole;
  /** Set once they have enrolled (a password and a second factor). */
  enrolledAt: string | null;
  createdAt: string;
  /** The practitioner's schedules (none for the other roles). */
  schedules: number[];
  /** Sessions open now: logged in, neither idle nor in all longer than the desk allows (by the database's clock). */
  sessions: number;
}

/** The SHA-256 of a token or session identifier, as stored. */
export function secretHash(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

interface Row {
  id: number;
  email: string;
  name: string;
  role: StaffRole;
  enrolled_at: string | null;
  created_at: string;
  schedules: string | null;
  sessions: number;
}

const STAFF_SELECT = `
  SELECT s.id, s.email, s.name, s.role, s.enrolled_at, s.created_at,
    (SELECT group_concat(schedule_id) FROM (SELECT schedule_id FROM staff_schedules WHERE staff_id = s.id ORDER BY schedule_id)) AS schedules,
    (SELECT count(*) FROM staff_sessions x, settings g WHERE x.staff_id = s.id AND x.verified = 1 AND g.id = 1
       AND x.seen_at > unixepoch() - g.desk_idle_minutes * 60 AND x.created_at > unixepoch() - g.desk_max_minutes * 60) AS sessions
  FROM staff s WHERE s.removed_at IS NULL`;

function staffOf(row: Row): StaffRow {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    enrolledAt: row.enrolled_at,
    createdAt: row.created_at,
    schedules: row.schedules === null ? [] : row.schedules.split(',').map(Number),
    sessions: row.sessions,
  };
}

/** Every person at the desk (not removed), by name. */
export function listStaff(store: Store): StaffRow[] {
  return (store.sql(`${STAFF_SELECT} ORDER BY s.name, s.id`).all() as unknown as Row[]).map(staffOf);
}

/** The person with `email` (ASCII lower case), unless removed. */
export function findStaff(store: Store, email: string): StaffRow | undefined {
  const row = store.sql(`${STAFF_SELECT} AND s.email = ?`).get(email) as unknown as Row | undefined;
  return row && staffOf(row);
}

/** The person of `id`, unless removed. */
export function staffById(store: Store, id: number): StaffRow | undefined {
  const row = store.sql(`${STAFF_SELECT} AND s.id = ?`).get(id) as unknown as Row | undefined;
  return row && staffOf(row);
}

/**
 * Adds a person, or takes back one removed before with the same address (a new name, role and schedules; their
 * old password and second factor are gone), and returns their id.
 */
export function upsertStaff(
  store: Store,
  person: { email: string; name: string; role: StaffRole; schedules: readonly number[] },
  createdAt: string,
): number {
  const { id } = store
    .sql(
      `INSERT INTO staff (email, name, role, created_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (email) DO UPDATE SET name = excluded.name, role = excluded.role, created_at = excluded.created_at,
         removed_at = NULL, password_hash = NULL, totp_secret = NULL, totp_last_step = NULL, enrolled_at = NULL,
         failures = 0, locked_until = NULL, lockouts = 0
       WHERE staff.removed_at IS NOT NULL
       RETURNING id`,
    )
    .get(person.email, person.name, person.role, createdAt) as { id: number };
  store.sql('DELETE FROM staff_schedules WHERE staff_id = ?').run(id);
  for (const schedule of person.schedules)
    store.sql('INSERT INTO staff_schedules (staff_id, schedule_id) VALUES (?, ?)').run(id, schedule);
  return id;
}

/**
 * Stores an enrolment link's token (its hash) for `staffId`, valid until `expiresAt` (Unix seconds); every earlier
 * link of theirs stops working.
 */
export function insertEnrolment(store: Store, staffId: number, token: string, expiresAt: number): void {
  store.sql('DELETE FROM staff_enrolments WHERE staff_id = ?').run(staffId);
  store
    .sql('INSERT INTO staff_enrolments (token_hash, staff_id, expires_at) VALUES (?, ?, ?)')
    .run(secretHash(token), staffId, expiresAt);
}

/**
 * Forgets how `staffId` logs in (password, second factor, recovery codes), ends their sessions and links: `staff
 * reset` (then a new link), and `staff remove` (then `removed_at`).
 */
export function forgetLogin(store: Store, staffId: number): void {
  store
    .sql(
      `UPDATE staff SET password_hash = NULL, totp_secret = NULL, totp_last_step = NULL, enrolled_at = NULL,
         failures = 0, locked_until = NULL, lockouts = 0 WHERE id = ?`,
    )
    .run(staffId);
  store.sql('DELETE FROM staff_recovery_codes WHERE staff_id = ?').run(staffId);
  store.sql('DELETE FROM staff_enrolments WHERE staff_id = ?').run(staffId);
  endSessions(store, staffId);
}

/** Marks `staffId` removed (the history keeps their name); their schedules are let go. */
export function markRemoved(store: Store, staffId: number, removedAt: string): void {
  forgetLogin(store, staffId);
  store.sql('DELETE FROM staff_schedules WHERE staff_id = ?').run(staffId);
  store.sql('UPDATE staff SET removed_at = ? WHERE id = ?').run(removedAt, staffId);
}

/** Ends the sessions of `staffId`, or of everyone (undefined); returns how many. */
export function endSessions(store: Store, staffId?: number): number {
  const result =
    staffId === undefined
      ? store.sql('DELETE FROM staff_sessions').run()
      : store.sql('DELETE FROM staff_sessions WHERE staff_id = ?').run(staffId);
  return Number(result.changes);
}

/** An enrolment link as the page opens it: whose, until when, and how far they came. */
export interface EnrolmentRow {
  staffId: number;
  email: string;
  name: string;
  expiresAt: number;
  usedAt: number | null;
  passwordHash: string | null;
  totpSecret: Uint8Array | null;
}

/** The enrolment of `token` (by its hash), of a person not removed; undefined for a token never made or replaced. */
export function findEnrolment(store: Store, token: string): EnrolmentRow | undefined {
  const row = store
    .sql(
      `SELECT e.staff_id AS staffId, s.email, s.name, e.expires_at AS expiresAt, e.used_at AS usedAt,
         s.password_hash AS passwordHash, s.totp_secret AS totpSecret
       FROM staff_enrolments e JOIN staff s ON s.id = e.staff_id
       WHERE e.token_hash = ? AND s.removed_at IS NULL`,
    )
    .get(secretHash(token)) as unknown as EnrolmentRow | undefined;
  return row;
}

/** Keeps a chosen password's hash and a new TOTP secret for `staffId`, not yet confirmed by a code. */
export function setCredentials(store: Store, staffId: number, passwordHash: string, totpSecret: Uint8Array): void {
  store
    .sql(
      'UPDATE staff SET password_hash = ?, totp_secret = ?, totp_last_step = NULL WHERE id = ? AND enrolled_at IS NULL',
    )
    .run(passwordHash, totpSecret, staffId);
}

/**
 * Completes an enrolment: the person is enrolled at `at` (their first code's step kept, so it is never accepted
 * again), the link is used, and the recovery codes (their hashes) replace any earlier ones.
 */
export function completeEnrolment(
  store: Store,
  enrolment: { staffId: number; token: string },
  firstStep: number,
  recoveryHashes: readonly string[],
  at: { iso: string; unix: number },
): void {
  store
    .sql('UPDATE staff SET enrolled_at = ?, totp_last_step = ? WHERE id = ?')
    .run(at.iso, firstStep, enrolment.staffId);
  store.sql('UPDATE staff_enrolments SET used_at = ? WHERE token_hash = ?').run(at.unix, secretHash(enrolment.token));
  store.sql('DELETE FROM staff_recovery_codes WHERE staff_id = ?').run(enrolment.staffId);
  for (const hash of recoveryHashes)
    store.sql('INSERT INTO staff_recovery_codes (staff_id, code_hash) VALUES (?, ?)').run(enrolment.staffId, hash);
}

/** What a login reads of the person with an address: how they log in, and their lockout. */
export interface LoginRow {
  id: number;
  passwordHash: string | null;
  totpSecret: Uint8Array | null;
  totpLastStep: number | null;
  lockedUntil: number | null;
}

/** The enrolled person with `email`, unless removed. */
export function loginRowOf(store: Store, email: string): LoginRow | undefined {
  return store
    .sql(
      `SELECT id, password_hash AS passwordHash, totp_secret AS totpSecret, totp_last_step AS totpLastStep,
         locked_until AS lockedUntil
       FROM staff WHERE email = ? AND removed_at IS NULL AND enrolled_at IS NOT NULL`,
    )
    .get(email) as unknown as LoginRow | undefined;
}

/** The person a session of `id` belongs to, with how they log in; `verified` 0 rows only (a code awaited). */
export function pendingLoginOf(store: Store, id: string, since: number): LoginRow | undefined {
  return store
    .sql(
      `SELECT s.id, s.password_hash AS passwordHash, s.totp_secret AS totpSecret, s.totp_last_step AS totpLastStep,
         s.locked_until AS lockedUntil
       FROM staff_sessions x JOIN staff s ON s.id = x.staff_id
       WHERE x.id_hash = ? AND x.verified = 0 AND x.created_at > ? AND s.removed_at IS NULL`,
    )
    .get(secretHash(id), since) as unknown as LoginRow | undefined;
}

/**
 * Counts a failed login of `staffId` at `now`: after `limit` failures in a row the account is locked for
 * `lockSeconds(lockouts)` (the lockouts so far), and the count starts again.
 */
export function recordLoginFailure(
  store: Store,
  staffId: number,
  now: number,
  limit: number,
  lockSeconds: (lockouts: number) => number,
): void {
  const row = store
    .sql('UPDATE staff SET failures = failures + 1 WHERE id = ? RETURNING failures, lockouts')
    .get(staffId) as { failures: number; lockouts: number };
  if (row.failures >= limit)
    store
      .sql('UPDATE staff SET failures = 0, lockouts = lockouts + 1, locked_until = ? WHERE id = ?')
      .run(now + lockSeconds(row.lockouts), staffId);
}

/** Opens a session row (`verified` 0 for a login awaiting its code), stored by the identifier's hash. */
export function insertSession(
  store: Store,
  session: { id: string; staffId: number; formToken: string; verified: boolean },
  now: number,
): void {
  store
    .sql(
      'INSERT INTO staff_sessions (id_hash, staff_id, form_token, verified, created_at, seen_at) VALUES (?, ?, ?, ?, ?, ?)',
    )
    .run(secretHash(session.id), session.staffId, session.formToken, session.verified ? 1 : 0, now, now);
}

/**
 * Deletes the sessions of `staffId` that have ended (idle, in all) and the logins that never got their code: a login
 * clears its person's old rows, so the table holds what is open and little more.
 */
export function pruneSessions(
  store: Store,
  staffId: number,
  now: number,
  lengths: { idleMinutes: number; maxMinutes: number },
  pendingSeconds: number,
): void {
  store
    .sql(
      `DELETE FROM staff_sessions WHERE staff_id = ? AND ((verified = 0 AND created_at <= ?)
         OR (verified = 1 AND (seen_at <= ? OR created_at <= ?)))`,
    )
    .run(staffId, now - pendingSeconds, now - lengths.idleMinutes * 60, now - lengths.maxMinutes * 60);
}

/** Ends the one session of `id`. */
export function deleteSession(store: Store, id: string): void {
  store.sql('DELETE FROM staff_sessions WHERE id_hash = ?').run(secretHash(id));
}

/** A login that succeeded: its code's step kept (never accepted again), the failures and lockouts forgotten. */
export function recordLoginSuccess(store: Store, staffId: number, step: number | null): void {
  store
    .sql(
      'UPDATE staff SET failures = 0, lockouts = 0, locked_until = NULL, totp_last_step = coalesce(?, totp_last_step) WHERE id = ?',
    )
    .run(step, staffId);
}

/** Uses up the recovery code of `hash` of `staffId`, when it is theirs and unused; returns whether it was. */
export function useRecoveryCode(store: Store, staffId: number, hash: string, now: number): boolean {
  return (
    store
      .sql('UPDATE staff_recovery_codes SET used_at = ? WHERE staff_id = ? AND code_hash = ? AND used_at IS NULL')
      .run(now, staffId, hash).changes === 1
  );
}

/** A verified session by its identifier: whose, its form token, when it began and was last seen. */
export interface SessionRow {
  staffId: number;
  formToken: string;
  createdAt: number;
  seenAt: number;
}

export function sessionOf(store: Store, id: string): SessionRow | undefined {
  return store
    .sql(
      `SELECT x.staff_id AS staffId, x.form_token AS formToken, x.created_at AS createdAt, x.seen_at AS seenAt
       FROM staff_sessions x JOIN staff s ON s.id = x.staff_id
       WHERE x.id_hash = ? AND x.verified = 1 AND s.removed_at IS NULL`,
    )
    .get(secretHash(id)) as unknown as SessionRow | undefined;
}

/** Marks a session seen at `now`. */
export function touchSession(store: Store, id: string, now: number): void {
  store.sql('UPDATE staff_sessions SET seen_at = ? WHERE id_hash = ?').run(now, secretHash(id));
}

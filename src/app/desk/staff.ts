/**
 * The people at the front desk, managed by the admin from the CLI (`planner staff add|list|remove|reset|logout`).
 * Adding or resetting someone gives a one-time enrolment link, valid ENROL_HOURS: its token is 256 random bits, shown
 * once, stored as its SHA-256. Removing someone, or resetting them, ends their sessions at once.
 */
import { randomBytes } from 'node:crypto';
import { asciiLower, emailProblem } from '../../domain/checks.ts';
import { STAFF_ROLES, type StaffRole } from '../../domain/staff.ts';
import { AppError, invalid, notFound } from '../../errors.ts';
import { findSchedule } from '../../store/schedules.ts';
import {
  endSessions,
  findStaff,
  forgetLogin,
  insertEnrolment,
  listStaff,
  markRemoved,
  type StaffRow,
  upsertStaff,
} from '../../store/staff.ts';
import { type AppContext, unixSeconds } from '../context.ts';
import { requireConfigured } from '../practice/configured.ts';
import { checkName } from '../practice/schedules.ts';
import { requireDesk } from './desk.ts';

/** How long an enrolment link works. */
export const ENROL_HOURS = 24;
/** The shape of an enrolment token: 32 random bytes, base64url. */
export const ENROL_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** Returns an e-mail address as kept (trimmed, ASCII lower case), or throws `invalid` naming what is wrong. */
export function checkStaffEmail(text: string): string {
  const problem = emailProblem(text);
  if (problem) throw invalid(`"${text}" is not an e-mail address: ${problem}`, 'email');
  return asciiLower(text.trim());
}

/** Returns `--role` as kept, or throws `invalid` naming the three. */
export function checkRole(text: string): StaffRole {
  if ((STAFF_ROLES as readonly string[]).includes(text)) return text as StaffRole;
  throw invalid(`--role must be ${STAFF_ROLES.join(', ').replace(/, (?=[^,]*$)/, ' or ')} (got "${text}")`, 'role');
}

/**
 * Returns the schedules of `--schedule` (ids separated by commas) for `role`: one or more existing schedules for a
 * practitioner (whom they are tied to), none for the others (who see every schedule).
 */
function checkSchedules(ctx: AppContext, role: StaffRole, text: string | undefined): number[] {
  if (role !== 'practitioner') {
    if (text !== undefined)
      throw invalid(
        `--schedule is for a practitioner; ${role === 'admin' ? 'an admin' : 'reception'} sees every schedule`,
      );
    return [];
  }
  if (text === undefined)
    throw invalid(
      'a practitioner needs --schedule <id>[,<id>…]: the schedules that are theirs (see `planner schedule list`)',
    );
  const ids = text.split(',').map((part) => part.trim());
  const bad = ids.find((id) => !/^[1-9]\d{0,8}$/.test(id));
  if (bad !== undefined)
    throw invalid(`--schedule takes schedule ids separated by commas, such as 1,3 (got "${text}")`);
  const schedules = [...new Set(ids.map(Number))];
  for (const id of schedules)
    if (!findSchedule(ctx.store, id)) throw notFound(`schedule ${id} does not exist (see \`planner schedule list\`)`);
  return schedules;
}

/** A new link for `staffId`: the token stored (hashed), the URL returned to be shown once. */
function newEnrolment(ctx: AppContext, staffId: number, deskUrl: string): string {
  const token = randomBytes(32).toString('base64url');
  insertEnrolment(ctx.store, staffId, token, unixSeconds(ctx.now()) + ENROL_HOURS * 3600);
  return `${deskUrl}/desk/enrol/${token}`;
}

/** Adds a person at the desk and returns their id and one-time enrolment link. */
export function addStaff(
  ctx: AppContext,
  input: { email: string; name: string; role: string; schedules?: string },
): { id: number; enrolUrl: string } {
  requireConfigured(ctx);
  const desk = requireDesk(ctx, 'add staff');
  const email = checkStaffEmail(input.email);
  const name = checkName(input.name);
  const role = checkRole(input.role);
  const schedules = checkSchedules(ctx, role, input.schedules);
  return ctx.store.tx(() => {
    if (findStaff(ctx.store, email))
      throw new AppError('conflict', `${email} is at the desk already (planner staff reset ${email} gives a new link)`);
    const id = upsertStaff(ctx.store, { email, name, role, schedules }, ctx.now().toISOString());
    return { id, enrolUrl: newEnrolment(ctx, id, desk.url) };
  });
}

/** Everyone at the desk, never a secret. */
export function staffList(ctx: AppContext): StaffRow[] {
  requireConfigured(ctx);
  return listStaff(ctx.store);
}

function existing(ctx: AppContext, emailText: string): StaffRow {
  const email = checkStaffEmail(emailText);
  const person = findStaff(ctx.store, email);
  if (!person) throw notFound(`${email} is not at the desk (see \`planner staff list\`)`);
  return person;
}

/** Removes a person: their sessions end at once, their links stop working; the history keeps their name. */
export function removeStaff(ctx: AppContext, email: string): StaffRow {
  requireConfigured(ctx);
  return ctx.store.tx(() => {
    const person = existing(ctx, email);
    markRemoved(ctx.store, person.id, ctx.now().toISOString());
    return person;
  });
}

/** Gives a person a new enrolment link: their password, second factor and recovery codes stop working, their sessions end. */
export function resetStaff(ctx: AppContext, email: string): { person: StaffRow; enrolUrl: string } {
  requireConfigured(ctx);
  const desk = requireDesk(ctx, 'reset staff');
  return ctx.store.tx(() => {
    const person = existing(ctx, email);
    forgetLogin(ctx.store, person.id);
    return { person, enrolUrl: newEnrolment(ctx, person.id, desk.url) };
  });
}

/** Ends the sessions of one person, or of everyone (`all`); returns how many ended. */
export function logoutStaff(ctx: AppContext, who: { email: string } | 'all'): number {
  requireConfigured(ctx);
  return ctx.store.tx(() => endSessions(ctx.store, who === 'all' ? undefined : existing(ctx, who.email).id));
}

/**
 * The front desk's switch and session lengths (`planner desk enable|disable|status|set`). Off until enabled, like
 * every door; served at `<url>/desk/`, whose address must be https (plain http only on a loopback address:
 * `checkPublicUrl`). Turning it off ends every session.
 */
import { parseDuration } from '../../domain/durations.ts';
import { invalid } from '../../errors.ts';
import { type DeskSettings, setDeskSessions, setDeskUrl } from '../../store/settings.ts';
import { endSessions, listStaff } from '../../store/staff.ts';
import type { AppContext } from '../context.ts';
import { requireConfigured } from '../practice/configured.ts';
import { checkPublicUrl } from '../practice/public-url.ts';

/** A session's bounds in minutes: idle 5 minutes to a day, in all 5 minutes to a week (migration 19's CHECKs). */
export const DESK_IDLE = { min: 5, max: 1440, default: 60 } as const;
export const DESK_MAX = { min: 5, max: 10080, default: 720 } as const;

/** Returns the desk's settings, or throws `invalid` saying how to turn it on before `what`. */
export function requireDesk(ctx: AppContext, what: string): DeskSettings {
  const { desk } = requireConfigured(ctx);
  if (!desk)
    throw invalid(
      `the desk is off: turn it on before you ${what}: planner desk enable --url https://booking.praxis.example`,
    );
  return desk;
}

/** Turns the desk on (the address needed the first time, then kept) and returns its settings. */
export function enableDesk(ctx: AppContext, url: string | undefined): DeskSettings {
  const settings = requireConfigured(ctx);
  const kept = url === undefined ? (settings.desk?.url ?? settings.portal?.url) : checkPublicUrl(url);
  if (kept === undefined)
    throw invalid('give the public address the first time: planner desk enable --url https://booking.praxis.example');
  setDeskUrl(ctx.store, kept);
  return requireConfigured(ctx).desk!;
}

/** Turns the desk off: every session ends, and /desk/ answers that it is off. Returns how many sessions ended. */
export function disableDesk(ctx: AppContext): number {
  requireConfigured(ctx);
  return ctx.store.tx(() => {
    setDeskUrl(ctx.store, null);
    return endSessions(ctx.store);
  });
}

/** Returns `text` (`--idle`, `--max`: `90`, `90m`, `1h30m`, `12h`) in minutes within `bounds`, or throws `invalid`. */
function checkMinutes(text: string, option: string, bounds: { min: number; max: number }): number {
  const parsed = parseDuration(text);
  if (!parsed.ok || parsed.value < bounds.min || parsed.value > bounds.max)
    throw invalid(
      `${option} takes a duration from ${bounds.min}m to ${bounds.max / 60}h, such as 1h or 90m (a bare number counts minutes; got "${text}")`,
    );
  return parsed.value;
}

/** Sets how long a session lasts idle and in all; what is not given stays. An idle time longer than the whole is refused. */
export function setDesk(
  ctx: AppContext,
  options: { idle?: string; max?: string },
): { idleMinutes: number; maxMinutes: number } {
  const settings = requireConfigured(ctx);
  const current = settings.deskSessions;
  if (options.idle === undefined && options.max === undefined)
    throw invalid('give --idle <duration>, --max <duration>, or both');
  const idleMinutes =
    options.idle === undefined ? current.idleMinutes : checkMinutes(options.idle, '--idle', DESK_IDLE);
  const maxMinutes = options.max === undefined ? current.maxMinutes : checkMinutes(options.max, '--max', DESK_MAX);
  if (idleMinutes > maxMinutes)
    throw invalid(`--idle (${idleMinutes} minutes) cannot be longer than --max (${maxMinutes} minutes)`);
  setDeskSessions(ctx.store, idleMinutes, maxMinutes);
  return { idleMinutes, maxMinutes };
}

/** What `planner desk status` tells: on or off, where, the sessions' lengths, how many staff and open sessions. */
export interface DeskStatus {
  enabled: boolean;
  url: string | null;
  idleMinutes: number;
  maxMinutes: number;
  staff: number;
  enrolled: number;
  sessions: number;
}

export function deskStatus(ctx: AppContext): DeskStatus {
  const { desk, deskSessions } = requireConfigured(ctx);
  const staff = listStaff(ctx.store);
  return {
    enabled: desk !== null,
    url: desk ? `${desk.url}/desk/` : null,
    ...deskSessions,
    staff: staff.length,
    enrolled: staff.filter((person) => person.enrolledAt !== null).length,
    sessions: staff.reduce((sum, person) => sum + person.sessions, 0),
  };
}

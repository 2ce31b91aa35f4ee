/** The booking API's switch and its rate limit per token (`planner api enable|disable|limit`). */
import { invalid } from '../../errors.ts';
import { setApiEnabled, setRateLimit } from '../../store/settings.ts';
import type { AppContext } from '../context.ts';
import { requireConfigured } from './configured.ts';

/** Turns the API on or off; a running server sees it at its next request. */
export function switchApi(ctx: AppContext, enabled: boolean): void {
  requireConfigured(ctx);
  setApiEnabled(ctx.store, enabled);
}

/**
 * Requests per minute per token of a new installation: spec §8, "300 requests per minute per token (default)". The
 * settings table's DEFAULT (migration 1) writes the same number; `planner api limit` changes it.
 */
export const DEFAULT_RATE_LIMIT = 300;
/** The highest rate limit `planner api limit` takes: the benchmark needs a limit it never reaches. */
export const RATE_LIMIT_MAX = 1_000_000_000;

/** Sets the rate limit in requests per minute per token, 1 to RATE_LIMIT_MAX. */
export function changeRateLimit(ctx: AppContext, perMinute: number): void {
  requireConfigured(ctx);
  if (!Number.isInteger(perMinute) || perMinute < 1 || perMinute > RATE_LIMIT_MAX) {
    throw invalid(`requests-per-minute must be a whole number from 1 to ${RATE_LIMIT_MAX} (got ${perMinute})`);
  }
  setRateLimit(ctx.store, perMinute);
}

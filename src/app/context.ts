import type { Store } from '../store/db.ts';
import { readSettings, type Settings } from '../store/settings.ts';

/** What every use case works with: the store, the clock and the settings. Tests pass a fixed `now`. */
export interface AppContext {
  store: Store;
  now: () => Date;
  /** The installation's settings; the server passes a cached copy that follows other processes' writes. */
  settings: () => Settings;
}

/** The system clock: the context's clock unless a test passes its own. */
export const systemNow = (): Date => new Date();

/**
 * Returns `ctx`'s clock in milliseconds: `Date.now` itself on the system clock, without a Date made per call (the
 * server asks it several times a request).
 */
export function clockMs(ctx: Pick<AppContext, 'now'>): () => number {
  return ctx.now === systemNow ? Date.now : () => ctx.now().getTime();
}

/** Returns a context on `store`; by default it reads the system clock and the settings row on each call. */
export function createContext(
  store: Store,
  now: () => Date = systemNow,
  settings: () => Settings = () => readSettings(store),
): AppContext {
  return { store, now, settings };
}

/** Returns `date` as Unix seconds. */
export function unixSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}

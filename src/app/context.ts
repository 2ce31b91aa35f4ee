import type { Store } from '../store/db.ts';
import { readSettings, type Settings } from '../store/settings.ts';

/** What every use case works with: the store, the clock and the settings. Tests pass a fixed `now`. */
export interface AppContext {
  store: Store;
  now: () => Date;
  /** The installation's settings; the server passes a cached copy that follows other processes' writes. */
  settings: () => Settings;
}

/** Returns a context on `store`; by default it reads the system clock and the settings row on each call. */
export function createContext(
  store: Store,
  now: () => Date = () => new Date(),
  settings: () => Settings = () => readSettings(store),
): AppContext {
  return { store, now, settings };
}

/** Returns `date` as Unix seconds. */
export function unixSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}

import type { Store } from '../store/db.ts';

/** What every use case works with: the store and the clock. Tests pass a fixed `now`. */
export interface AppContext {
  store: Store;
  now: () => Date;
}

/** Returns a context on `store` that reads the system clock. */
export function createContext(store: Store, now: () => Date = () => new Date()): AppContext {
  return { store, now };
}

/** Returns `now` as Unix seconds. */
export function unixSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}

import type { Store } from './db.ts';
import { readSettings, type Settings } from './settings.ts';

/** What a long-running process (the server) knows about changes that other processes (the CLI) made to the file. */
export interface StoreWatch {
  /** Checks `PRAGMA data_version` once, re-reads the settings row only if another process wrote, and returns them. */
  refresh(): Settings;
  /** Returns the settings as of the last `refresh`, without asking SQLite. */
  settings(): Settings;
  /** A number that changes whenever another process has written: answers cached under it are still right. */
  generation(): number;
}

/**
 * Returns a watch on `store`: one cheap `PRAGMA data_version` per request instead of re-reading everything.
 * The process's own writes do not change data_version, and never need to: the server only writes bookings.
 */
export function watchStore(store: Store): StoreWatch {
  let version = store.dataVersion();
  let generation = 0;
  let settings = readSettings(store);
  return {
    refresh() {
      const now = store.dataVersion();
      if (now !== version) {
        version = now;
        generation++;
        settings = readSettings(store);
      }
      return settings;
    },
    settings: () => settings,
    generation: () => generation,
  };
}

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
 * Returns a watch on `store`: one `PRAGMA data_version` per batch of requests instead of re-reading everything.
 * The process's own writes do not change data_version, and never need to: the server only writes bookings.
 *
 * In WAL mode data_version opens and closes a read transaction (two file locks: the profile of GET /schedules
 * showed it at 39 % of the server's CPU). It is asked once per synchronous run of the event loop: the requests a
 * socket read brought (pipelined ones) share one answer, and the flag is cleared in a microtask, which runs before
 * the next socket's data is handled. Every request that shares an answer had arrived before it was asked, so a
 * change another process committed before a request was sent is still seen by that request.
 */
export function watchStore(store: Store): StoreWatch {
  let version = store.dataVersion();
  let generation = 0;
  let settings = readSettings(store);
  let asked = false;
  const forget = () => {
    asked = false;
  };
  return {
    refresh() {
      if (asked) return settings;
      asked = true;
      queueMicrotask(forget);
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

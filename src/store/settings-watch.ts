import type { Store } from './db.ts';
import { readSettings, type Settings } from './settings.ts';

/**
 * Returns a function that gives the current settings, re-reading the row only when another process
 * (the CLI) has committed to the file since the last call: one `PRAGMA data_version` per request.
 * `onChange` runs after each re-read, so derived caches can be dropped.
 */
export function watchSettings(store: Store, onChange: (settings: Settings) => void = () => {}): () => Settings {
  let version = store.dataVersion();
  let settings = readSettings(store);
  return () => {
    const now = store.dataVersion();
    if (now !== version) {
      version = now;
      settings = readSettings(store);
      onChange(settings);
    }
    return settings;
  };
}

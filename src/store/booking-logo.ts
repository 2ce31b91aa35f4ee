/** The booking page's logo (migration 16): one row, its bytes and type, and the version its address carries. */
import type { Store } from './db.ts';

export interface Logo {
  type: string;
  bytes: Uint8Array;
  /** A hash of the bytes: the page links `/book/logo?v=<version>`, so a new logo is a new address. */
  version: string;
}

/** Puts `logo` in place of the one kept, or removes it (null). */
export function setLogo(store: Store, logo: Logo | null): void {
  store.sql('DELETE FROM booking_logo').run();
  if (logo)
    store
      .sql('INSERT INTO booking_logo (id, type, bytes, version) VALUES (1, ?, ?, ?)')
      .run(logo.type, logo.bytes, logo.version);
}

/** The logo kept, if any. */
export function readLogo(store: Store): Logo | undefined {
  const row = store.sql('SELECT type, bytes, version FROM booking_logo WHERE id = 1').get() as
    | { type: string; bytes: Uint8Array; version: string }
    | undefined;
  return row && { type: row.type, bytes: row.bytes, version: row.version };
}

import { closeSync, openSync, readSync } from 'node:fs';
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

/** Bytes of the WAL index that every commit rewrites: its header (48 bytes), which SQLite keeps in two copies. */
const WAL_INDEX_HEADER_BYTES = 48;

/**
 * Returns a function that tells, without asking SQLite, whether another connection may have committed since it was
 * last called: it reads the WAL index header at the start of `<file>-shm` (one `pread`, no lock), which every
 * commit rewrites (its change counter, frame count, salts and checksums). A header caught half-written, or a file
 * that cannot be read, reads as "may have": the caller then asks SQLite, which decides. Only a header equal to the
 * last one seen says "no commit since", and a commit finished before that read is in it (the header is written
 * into the shared memory before COMMIT returns). Without a `-shm` (an in-memory database) it always says "may have".
 */
function walIndexWatch(file: string): { moved: () => boolean; forget: () => void } {
  let fd: number | undefined;
  try {
    fd = openSync(`${file}-shm`, 'r');
  } catch {
    return { moved: () => true, forget: () => {} };
  }
  const last = Buffer.alloc(WAL_INDEX_HEADER_BYTES);
  const now = Buffer.alloc(WAL_INDEX_HEADER_BYTES);
  let known = false;
  const moved = () => {
    if (fd === undefined) return true;
    try {
      if (readSync(fd, now, 0, WAL_INDEX_HEADER_BYTES, 0) !== WAL_INDEX_HEADER_BYTES) return true;
    } catch {
      closeSync(fd);
      fd = undefined;
      return true;
    }
    if (known && now.equals(last)) return false;
    now.copy(last);
    known = true;
    return true;
  };
  // The header last seen is forgotten when what it announced could not be read: the next call says "may have" again.
  return { moved, forget: () => (known = false) };
}

/**
 * Returns a watch on `store`. A CLI change takes effect at the next request: each request asks whether the file
 * changed. The answer comes from the WAL index header (walIndexWatch: one `pread`) and, only when that moved,
 * from `PRAGMA data_version`, which in WAL mode opens and closes a read transaction (two file locks and an `fstat`:
 * 39 % of the server's CPU in the profile of GET /schedules when it was asked on every request, 19 % of it without
 * pipelining when asked once per batch). The process's own writes move the header but not data_version, and never
 * need a re-read: the server only writes bookings.
 *
 * It is also asked once per synchronous run of the event loop: the requests a socket read brought (pipelined ones)
 * share one answer, and the flag is cleared in a microtask, which runs before the next socket's data is handled.
 * Every request that shares an answer had arrived before it was asked, so a change another process committed before
 * a request was sent is still seen by that request.
 */
export function watchStore(store: Store): StoreWatch {
  // The header is first read at the first request, which therefore asks SQLite too. A read of the settings that
  // fails (a file another process is changing, a disk error) fails that request, and the next one asks again: it never
  // leaves the server on the settings it had, as a header taken for seen would.
  const header = walIndexWatch(store.file);
  let version = store.dataVersion();
  let generation = 0;
  let settings = readSettings(store);
  let asked = false;
  const forget = () => {
    asked = false;
  };
  /** Reads the settings when another connection committed; a read that fails is tried again at the next call. */
  const follow = () => {
    try {
      const now = store.dataVersion();
      if (now === version) return;
      settings = readSettings(store);
      version = now;
      generation++;
    } catch (error) {
      header.forget();
      throw error;
    }
  };
  return {
    refresh() {
      if (asked) return settings;
      if (header.moved()) follow(); // throws when the file cannot be read: the request fails, the next one asks again
      asked = true;
      queueMicrotask(forget);
      return settings;
    },
    settings: () => settings,
    generation: () => generation,
  };
}

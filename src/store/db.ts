import { accessSync, chmodSync, closeSync, constants, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { userInfo } from 'node:os';
import { dirname } from 'node:path';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import { pathToFileURL } from 'node:url';
import { asciiLower } from '../domain/checks.ts';
import { nationalDigits } from '../domain/phone.ts';
import { AppError } from '../errors.ts';
import { migrations } from './migrations.ts';

/** How long a writer waits for another process's write lock before SQLITE_BUSY. */
export const BUSY_TIMEOUT_MS = 5000;

export type Row = Record<string, SQLInputValue>;

/** An open planner database: one connection, its cached prepared statements and a transaction helper. */
export interface Store {
  readonly file: string;
  readonly db: DatabaseSync;
  /** Returns the prepared statement for `sql`, preparing it once per connection. */
  sql(sql: string): StatementSync;
  /** Runs `fn` inside `BEGIN IMMEDIATE … COMMIT`, rolling back if it throws. Nested calls join the outer one. */
  tx<T>(fn: () => T): T;
  /**
   * Runs each of `members` in its own savepoint of one `BEGIN IMMEDIATE … COMMIT` (group commit: one write lock and
   * one fsync for all). A member that throws is rolled back alone and gets its error; the others are kept. When the
   * transaction itself fails (the lock not had in time, the commit refused), every member gets that error and
   * nothing is kept. Not inside another transaction.
   */
  group<T>(members: readonly (() => T)[]): GroupOutcome<T>[];
  /** Returns SQLite's data_version: it changes when another connection commits to the file. */
  dataVersion(): number;
  /** Returns the schema version recorded in the file. */
  schemaVersion(): number;
  close(): void;
}

/** Returns text as searches compare it: Unicode compatibility forms joined (NFKC), lower case. */
export function searchText(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

/**
 * Returns a name as people search for it: folded as `searchText`, then without accents (`é` as `e`, `ü` as `u`), `ß`
 * as `ss`, and the German spellings of umlauts without them (`ae`, `oe`, `ue` as `a`, `o`, `u`), so that `mueller`,
 * `muller` and `Müller` all find Müller (and Mueller). Applied to both the stored name and the text searched for, it
 * may find a little more than was meant (`Manuel` for `manul`), never less.
 */
export function nameSearchText(text: string): string {
  return searchText(text)
    .replace(/ß/g, 'ss')
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/([aou])e/g, '$1');
}

/** What one member of `Store.group` came to: its result, or what it threw. */
export type GroupOutcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

/**
 * Opens (and, unless `mustExist`, creates with mode 0600, in folders made 0700) the database, sets the pragmas and
 * applies pending migrations. Refuses a file written by a newer program before writing anything to it.
 *
 * `readOnly` (the commands that only look: status, lists, doctor, backup): opens the file read-only, so it works
 * on a file this user may only read and never changes one; a file that still needs a migration is migrated first
 * through a writing connection where this user may write, else refused with what to do. An empty file is
 * treated as no installation (nothing is written into it).
 */
export function openStore(file: string, options: { mustExist?: boolean; readOnly?: boolean } = {}): Store {
  if (!databaseExists(file)) {
    if (options.mustExist || options.readOnly) {
      throw new AppError(
        'not_configured',
        `no planner database at ${file}: run \`planner init\` (or pass --db <file>)`,
      );
    }
    createFile(file);
  }
  let db: DatabaseSync;
  try {
    db = options.readOnly ? connectReadOnly(file) : connectWriting(file);
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError('storage', `cannot open database ${file}: ${(error as Error).message}`);
  }
  registerFunctions(db);
  const store = storeOn(file, db);
  try {
    migrate(store);
  } catch (error) {
    store.close();
    throw error;
  }
  return store;
}

/** Returns the name of the user this process runs as, with its uid: `nobody (uid 65534)`. */
function currentUser(): string {
  const uid = process.getuid?.();
  try {
    return `${userInfo().username}${uid === undefined ? '' : ` (uid ${uid})`}`;
  } catch {
    return `uid ${uid}`; // no entry in the user database (a container's numeric user)
  }
}

/**
 * Returns whether the database `file` exists, or throws `storage` when this user may not read it or may not reach
 * it through its folders: one practice's file among several, each its own user's (README: "Hosting many practices"),
 * is then "permission denied", never "no installation" (which `existsSync` would make of a folder closed to us).
 */
export function databaseExists(file: string): boolean {
  try {
    accessSync(file, constants.R_OK);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return false;
    if (code !== 'EACCES' && code !== 'EPERM') throw error;
    const user = currentUser();
    throw new AppError(
      'storage',
      `permission denied: ${user} may not read ${file}${existsSync(file) ? '' : ' (a folder on its way is closed to this user)'}: run planner as the user who owns it (e.g. sudo -u <owner> planner …), or give ${user.split(' ')[0]} read access`,
    );
  }
}

/** Creates a new database file, 0600 from its first byte, in folders made 0700. */
function createFile(file: string): void {
  // 0700 whatever the umask (mkdir masks the mode, never widens it): whoever may write a folder on the way to the
  // file may swap it or its WAL. Only the folders made here; one that exists is the admin's to set.
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  // Create the file ourselves so it is 0600 from the first byte; SQLite gives -wal and -shm the same mode.
  closeSync(openSync(file, 'a', 0o600));
  chmodSync(file, 0o600);
}

/**
 * Opens `file` read-only: refused when it is empty (no installation) or newer; a file that needs a migration is
 * migrated first through a writing connection, where this user may write.
 */
function connectReadOnly(file: string): DatabaseSync {
  let db = openReadOnly(file);
  const version = readVersion(db, file);
  if (version === 0 && statSync(file).size === 0) {
    db.close();
    throw new AppError(
      'not_configured',
      `${file} is empty, not a planner database: run \`planner init\` (or pass --db <file>)`,
    );
  }
  if (version < migrations.length) {
    db.close();
    if (!canWrite(file)) {
      throw new AppError(
        'conflict',
        `database ${file} has schema version ${version} and needs migrating to ${migrations.length}: run planner as the file's owner once (e.g. restart planner serve)`,
      );
    }
    openStore(file, { mustExist: true }).close(); // migrates
    db = openReadOnly(file);
  }
  return db;
}

/** Opens `file` for writing, with the pragmas every writing connection has (CONTRIBUTING: "Planner and Litestream"). */
function connectWriting(file: string): DatabaseSync {
  const db = new DatabaseSync(file, { timeout: BUSY_TIMEOUT_MS, enableForeignKeyConstraints: true });
  readVersion(db, file); // a newer file is refused before the pragmas below change it
  db.exec('PRAGMA journal_mode = WAL');
  // FULL: a booking whose 201 was sent survives a power cut, not only a crash.
  db.exec('PRAGMA synchronous = FULL');
  // Deleted and overwritten content is zeroed, not left in free space (erased data is gone from the file).
  db.exec('PRAGMA secure_delete = ON');
  return db;
}

/**
 * The SQL functions of the one search rule (`BOOKING_MATCHES` in store/bookings.ts): SQLite's lower() folds ASCII
 * only, not "Müller"; an address compares by its ASCII case alone (`asciiLower`, the rule of `emailKey`).
 */
function registerFunctions(db: DatabaseSync): void {
  db.function('planner_search', { deterministic: true }, (value) => (value === null ? '' : searchText(String(value))));
  db.function('planner_name', { deterministic: true }, (value) =>
    value === null ? '' : nameSearchText(String(value)),
  );
  db.function('planner_phone', { deterministic: true }, (value, code) =>
    value === null ? '' : nationalDigits(String(value), String(code ?? '')),
  );
  db.function('planner_email', { deterministic: true }, (value) => (value === null ? '' : asciiLower(String(value))));
}

/** The Store of an open connection: its prepared statements kept, transactions, group commits. */
function storeOn(file: string, db: DatabaseSync): Store {
  const statements = new Map<string, StatementSync>();
  let depth = 0;
  // Asked once per API request: its own statement, answering an array instead of building an object.
  let dataVersion: StatementSync | undefined;
  const store: Store = {
    file,
    db,
    sql(sql) {
      let statement = statements.get(sql);
      if (!statement) {
        statement = db.prepare(sql);
        statements.set(sql, statement);
      }
      return statement;
    },
    tx(fn) {
      if (depth > 0) return fn();
      db.exec('BEGIN IMMEDIATE');
      depth++;
      try {
        const result = fn();
        db.exec('COMMIT');
        return result;
      } catch (error) {
        if (db.isTransaction) db.exec('ROLLBACK');
        throw error;
      } finally {
        depth--;
      }
    },
    group(members) {
      if (depth > 0) throw new Error('group() inside a transaction');
      const outcomes: GroupOutcome<any>[] = [];
      depth++;
      try {
        db.exec('BEGIN IMMEDIATE');
        for (const member of members) {
          db.exec('SAVEPOINT member');
          try {
            outcomes.push({ ok: true, value: member() });
            db.exec('RELEASE member');
          } catch (error) {
            db.exec('ROLLBACK TO member');
            db.exec('RELEASE member');
            outcomes.push({ ok: false, error });
          }
        }
        db.exec('COMMIT');
        return outcomes;
      } catch (error) {
        if (db.isTransaction) db.exec('ROLLBACK');
        return members.map(() => ({ ok: false, error }));
      } finally {
        depth--;
      }
    },
    dataVersion() {
      if (!dataVersion) {
        dataVersion = db.prepare('PRAGMA data_version');
        dataVersion.setReturnArrays(true);
      }
      return (dataVersion.get() as unknown as [number])[0];
    },
    schemaVersion() {
      return (store.sql('PRAGMA user_version').get() as { user_version: number }).user_version;
    },
    close() {
      statements.clear();
      dataVersion = undefined;
      if (db.isOpen) db.close();
    },
  };
  return store;
}

/** The error for a file whose schema is newer than this program's. */
function newerFile(file: string, version: number): AppError {
  return new AppError(
    'conflict',
    `database ${file} has schema version ${version}, newer than this planner understands (${migrations.length}): use a newer planner`,
  );
}

/** Returns the schema version of the file open in `db`; refuses (and closes) a file from a newer planner. */
function readVersion(db: DatabaseSync, file: string): number {
  const version = (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
  if (version > migrations.length) {
    db.close();
    throw newerFile(file, version);
  }
  return version;
}

/**
 * Opens `file` read-only. In WAL mode SQLite needs the `-shm` file, and creates it when missing; where this user
 * may not create it (a folder it may only read), the file is read as immutable instead, which needs neither, but
 * only while no other connection has it open: a `-shm` or `-wal` beside it means one may (a running server), and
 * immutable reading takes no locks and ignores the WAL, so it could read stale or half-written pages. Then the
 * command is refused with what to do.
 */
function openReadOnly(file: string): DatabaseSync {
  let db: DatabaseSync | undefined;
  try {
    db = new DatabaseSync(file, { readOnly: true, timeout: BUSY_TIMEOUT_MS });
    db.prepare('PRAGMA user_version').get(); // the first read is where a missing -shm shows
    return db;
  } catch (error) {
    db?.close();
    if (existsSync(`${file}-shm`) || existsSync(`${file}-wal`)) {
      throw new AppError(
        'storage',
        `cannot read ${file} while it is in use (${(error as Error).message}): run this command as the file's owner, or when planner serve is stopped`,
      );
    }
    return new DatabaseSync(new URL(`${pathToFileURL(file).href}?immutable=1`), { readOnly: true });
  }
}

/** True when this process may write `file` (and so create its -wal and -shm beside it). */
function canWrite(file: string): boolean {
  try {
    accessSync(file, constants.W_OK);
    accessSync(dirname(file), constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Applies the migrations the file lacks, all in one immediate transaction: an upgrade completes, or leaves the file
 * as it was, at a version the program that wrote it can still open (a failed upgrade is never half done).
 */
function migrate(store: Store): void {
  const latest = migrations.length;
  if (store.schemaVersion() === latest) return;
  let from = latest;
  // With foreign keys off, as SQLite's steps for rebuilding a table say (a parent such as bookings, migration 15,
  // cannot be dropped and made again otherwise; the pragma does nothing inside a transaction), and checked before
  // the upgrade commits: no migration may leave a reference broken.
  store.db.exec('PRAGMA foreign_keys = OFF');
  try {
    store.tx(() => {
      // Re-read inside the write lock: another process may have migrated meanwhile.
      let version = store.schemaVersion();
      from = version;
      if (version > latest) throw newerFile(store.file, version);
      for (; version < latest; version++) store.db.exec(migrations[version]!);
      const broken = store.db.prepare('PRAGMA foreign_key_check').all();
      if (broken.length > 0)
        throw new Error(`the upgrade to schema version ${latest} would break ${broken.length} reference(s)`);
      store.db.exec(`PRAGMA user_version = ${latest}`);
    });
  } finally {
    store.db.exec('PRAGMA foreign_keys = ON');
    store.db.exec('PRAGMA legacy_alter_table = OFF'); // migration 21 turns it on for one rename; a failed one too
  }
  // A file from before `secure_delete` (migration 12) may hold deleted rows in its free pages: rewritten
  // once, so that an erase leaves nothing behind. Another process reading the file makes it wait for the next start.
  if (from > 0 && from < SECURE_DELETE_SINCE) {
    try {
      store.db.exec('VACUUM');
    } catch {
      // busy: the old free pages stay until a later VACUUM (README: "Personal data (GDPR)")
    }
  }
}

/** The schema version from which the file runs with `secure_delete`. */
const SECURE_DELETE_SINCE = 12;

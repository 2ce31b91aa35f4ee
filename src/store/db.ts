import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { AppError } from '../errors.ts';
import { migrations } from './migrations.ts';

/** How long a writer waits for another process's write lock before SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 5000;

export type Row = Record<string, SQLInputValue>;

/** An open planner database: one connection, its cached prepared statements and a transaction helper. */
export interface Store {
  readonly file: string;
  readonly db: DatabaseSync;
  /** Returns the prepared statement for `sql`, preparing it once per connection. */
  sql(sql: string): StatementSync;
  /** Runs `fn` inside `BEGIN IMMEDIATE … COMMIT`, rolling back if it throws. Nested calls join the outer one. */
  tx<T>(fn: () => T): T;
  /** Returns SQLite's data_version: it changes when another connection commits to the file. */
  dataVersion(): number;
  /** Returns the schema version recorded in the file. */
  schemaVersion(): number;
  close(): void;
}

/**
 * Opens (and, unless `mustExist`, creates with mode 0600) the database, sets the pragmas and applies
 * pending migrations. Refuses a file written by a newer program.
 */
export function openStore(file: string, options: { mustExist?: boolean } = {}): Store {
  if (!existsSync(file)) {
    if (options.mustExist) {
      throw new AppError('not_configured', `no planner database at ${file}: run \`planner init\` (or pass --db <file>)`);
    }
    mkdirSync(dirname(file), { recursive: true });
    // Create the file ourselves so it is 0600 from the first byte; SQLite gives -wal and -shm the same mode.
    closeSync(openSync(file, 'a', 0o600));
    chmodSync(file, 0o600);
  }
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(file, { timeout: BUSY_TIMEOUT_MS, enableForeignKeyConstraints: true });
    db.exec('PRAGMA journal_mode = WAL');
    // FULL: a booking whose 201 was sent survives a power cut, not only a crash.
    db.exec('PRAGMA synchronous = FULL');
  } catch (error) {
    throw new AppError('storage', `cannot open database ${file}: ${(error as Error).message}`);
  }
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
  try {
    migrate(store);
  } catch (error) {
    store.close();
    throw error;
  }
  return store;
}

/** Applies the migrations the file lacks, each in its own immediate transaction. */
function migrate(store: Store): void {
  const latest = migrations.length;
  const check = (version: number) => {
    if (version > latest) {
      throw new AppError(
        'conflict',
        `database ${store.file} has schema version ${version}, newer than this planner understands (${latest}): use a newer planner`,
      );
    }
  };
  check(store.schemaVersion());
  if (store.schemaVersion() === latest) return;
  store.tx(() => {
    // Re-read inside the write lock: another process may have migrated meanwhile.
    let version = store.schemaVersion();
    check(version);
    for (; version < latest; version++) store.db.exec(migrations[version]!);
    store.db.exec(`PRAGMA user_version = ${latest}`);
  });
}

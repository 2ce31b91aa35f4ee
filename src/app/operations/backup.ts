import { closeSync, existsSync, openSync, rmSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { AppError, invalid } from '../../errors.ts';
import type { AppContext } from '../context.ts';

/**
 * Writes a consistent copy of the database to `target` while other processes (a running server) keep working:
 * SQLite's `VACUUM INTO` reads one snapshot. The copy is created 0600 before anything is written into it.
 * Refuses an existing file unless `force`. Returns the copy's size in bytes.
 */
export function backupDatabase(ctx: AppContext, target: string, force: boolean): number {
  const file = resolve(target);
  if (file === ctx.store.file) throw invalid('the backup must not be the database itself');
  if (existsSync(file)) {
    if (!force) throw new AppError('conflict', `${file} exists; choose another name or pass --force to replace it`);
    rmSync(file);
  }
  try {
    closeSync(openSync(file, 'wx', 0o600)); // VACUUM INTO accepts an empty file: it keeps this mode
  } catch (error) {
    throw invalid(`cannot create ${file}: ${(error as Error).message}`);
  }
  try {
    ctx.store.db.prepare('VACUUM INTO ?').run(file);
    const copy = new DatabaseSync(file, { readOnly: true });
    const check = (copy.prepare('PRAGMA quick_check').get() as { quick_check: string }).quick_check;
    copy.close();
    if (check !== 'ok') throw new Error(`the copy failed its check: ${check}`);
  } catch (error) {
    rmSync(file, { force: true });
    throw new AppError('storage', `the backup failed, nothing was kept: ${(error as Error).message}`);
  }
  return statSync(file).size;
}

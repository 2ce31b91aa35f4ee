import type { Command } from 'commander';
import type { AppContext } from '../app/context.ts';
import { openContext, resolveDbPath } from '../app/runtime.ts';
import { invalid } from '../errors.ts';
import { parsePlainInt } from '../domain/checks.ts';
import { durationIn, type BareUnit } from '../domain/durations.ts';
import { terminalJson, visible } from './terminal.ts';

/** Returns the database path of this invocation: `--db`, else `PLANNER_DB`, else `data/planner.db`. */
export function dbPath(command: Command): string {
  return resolveDbPath(command.optsWithGlobals<{ db?: string }>().db);
}

/**
 * Runs `fn` with a context on the database of `command` and closes it afterwards.
 * `create`: make the file if it is missing (init, demo, serve); otherwise a missing file is an error.
 */
export async function withContext<T>(command: Command, fn: (ctx: AppContext) => T | Promise<T>, create = false): Promise<T> {
  return run(openContext(dbPath(command), { mustExist: !create }), fn);
}

/**
 * Runs `fn` like `withContext`, on the database opened read-only: for the commands that only look (status, lists,
 * show, doctor, backup, tests of mail and hooks). They work on a file this user may only read, and never change it.
 */
export async function readContext<T>(command: Command, fn: (ctx: AppContext) => T | Promise<T>): Promise<T> {
  return run(openContext(dbPath(command), { mustExist: true, readOnly: true }), fn);
}

async function run<T>(ctx: AppContext, fn: (ctx: AppContext) => T | Promise<T>): Promise<T> {
  try {
    return await fn(ctx);
  } finally {
    ctx.store.close();
  }
}

/** Returns the whole number written in `text` for option or argument `label`, or throws a clear error. */
export function whole(text: string, label: string): number {
  const value = parsePlainInt(text.trim());
  if (value === undefined) throw invalid(`${label} must be a whole number (got "${text}")`);
  return value;
}

/**
 * Returns the minutes written in `text` for `option` (`45`, `45m`, `1h30m`, `12h`, `2d`; a bare number counts
 * minutes unless `bare` says hours), when they lie in [min, max]; else throws naming the option and the value.
 */
export function minutes(text: string, option: string, range: { min: number; max: number; bare?: BareUnit }): number {
  const checked = durationIn(text, option, range);
  if (!checked.ok) throw invalid(checked.error);
  return checked.value;
}

/** Returns the id written in `text` (a whole number >= 1). */
export function id(text: string, label = 'id'): number {
  const value = whole(text, label);
  if (value < 1) throw invalid(`${label} must be 1 or more (got "${text}")`);
  return value;
}

/** Writes `value` as JSON on stdout, with no character a terminal would obey (src/cli/terminal.ts). */
export function printJson(value: unknown): void {
  process.stdout.write(`${terminalJson(value)}\n`);
}

/**
 * Writes lines on stdout, one per argument: a line break, or any other control character, inside a line is shown
 * visibly (src/cli/terminal.ts), so no stored text can drive the terminal or fake a line.
 */
export function print(...lines: string[]): void {
  process.stdout.write(lines.map((line) => `${visible(line)}\n`).join(''));
}

/** Writes rows as a table with a header line, columns padded to their widest cell. */
export function printTable(header: string[], rows: (string | number)[][], empty = '(none)'): void {
  if (rows.length === 0) {
    print(empty);
    return;
  }
  const cells = [header, ...rows.map((row) => row.map(String))];
  const widths = header.map((_, column) => Math.max(...cells.map((row) => row[column]!.length)));
  print(...cells.map((row) => row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd()));
}

/** True when a person sits at the terminal: prompts are allowed. */
export function interactive(): boolean {
  return Boolean(process.stdin.isTTY && process.stdout.isTTY);
}

import type { Command } from 'commander';
import type { AppContext } from '../app/context.ts';
import { auditCommand } from '../app/customers/audit.ts';
import { openContext, resolveDbPath } from '../app/operations/runtime.ts';
import { parsePlainInt } from '../domain/checks.ts';
import { formatLocal } from '../domain/dates.ts';
import { utcText } from '../domain/days.ts';
import { type BareUnit, durationIn } from '../domain/durations.ts';
import { isLocale, type LocalTexts } from '../domain/languages.ts';
import { invalid } from '../errors.ts';
import { terminalJson, visible } from './terminal.ts';

/** Returns the database path of this invocation: `--db`, else `PLANNER_DB`, else `data/planner.db`. */
export function dbPath(command: Command): string {
  return resolveDbPath(command.optsWithGlobals<{ db?: string }>().db);
}

/**
 * Runs `fn` with a context on the database of `command` and closes it afterwards.
 * `create`: make the file if it is missing (init, demo, serve); otherwise a missing file is an error.
 */
export async function withContext<T>(
  command: Command,
  fn: (ctx: AppContext) => T | Promise<T>,
  create = false,
): Promise<T> {
  return run(openContext(dbPath(command), { mustExist: !create }), async (ctx) => {
    const result = await fn(ctx);
    // The audit log: which command changed data, and the system user who ran it; never its arguments
    // (they may hold personal data), and only once it succeeded.
    auditCommand(ctx, commandPath(command));
    return result;
  });
}

/** `bookings cancel` for the command `planner bookings cancel`. */
function commandPath(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at && at.parent; at = at.parent) names.unshift(at.name());
  return names.join(' ');
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

/** Returns a booking for scripts: its instants as ISO UTC strings, plus the local start in the installation's zone. */
export function bookingJson<T extends { startAt: number; endAt: number }>(item: T, zone: string) {
  return {
    ...item,
    start: utcText(item.startAt),
    end: utcText(item.endAt),
    localStart: formatLocal(new Date(item.startAt * 1000), zone),
    timeZone: zone,
  };
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

/** Returns the width output may take: the terminal's columns when stdout is a terminal; unlimited otherwise (a pipe, a file). */
export function outputWidth(): number {
  return process.stdout.isTTY && process.stdout.columns > 0 ? process.stdout.columns : Infinity;
}

/** The narrowest a shrunk column gets: its header, or 5 characters. */
const MIN_COLUMN = 5;

/**
 * Narrows the `shrink` columns of `widths` (the widest first, each to no less than its floor: its header, 5
 * characters, or what `floors` gives) until the table, with two spaces between columns, fits `limit`. Columns not
 * named keep their width: ids, times, the phone.
 */
function fitWidths(
  widths: number[],
  header: string[],
  shrink: readonly number[],
  limit: number,
  floors: ReadonlyMap<number, number>,
): void {
  let excess = widths.reduce((sum, width) => sum + width, 2 * (widths.length - 1)) - limit;
  const floor = (column: number) => Math.max(header[column]!.length, MIN_COLUMN, floors.get(column) ?? 0);
  while (excess > 0) {
    const candidates = shrink
      .filter((column) => widths[column]! > floor(column))
      .sort((a, b) => widths[b]! - widths[a]!);
    const widest = candidates[0];
    if (widest === undefined) return; // as narrow as it gets: the terminal wraps the rest
    const width = widths[widest]!;
    const next = candidates[1] === undefined ? 0 : widths[candidates[1]]!;
    // Down to the next widest at most (so that equal columns then shrink in turn), by one at least.
    const to = Math.max(floor(widest), Math.min(width - 1, Math.max(next, width - excess)));
    excess -= width - to;
    widths[widest] = to;
  }
}

/** Returns `cell` cut to `width` characters, its end shown as `…`. */
function cut(cell: string, width: number): string {
  return cell.length <= width
    ? cell
    : `${Array.from(cell)
        .slice(0, width - 1)
        .join('')}…`;
}

/** A column whose cells have a shorter form that must stay whole (a customer's initial and whole surname). */
export interface ShortForms {
  column: number;
  /** One per row: shown when the cell itself does not fit; the column is never narrower than the widest. */
  cells: string[];
}

/**
 * Writes rows as a table with a header line, columns padded to their widest cell. With `shrink` (the free-text
 * columns: names, e-mails), a table wider than the terminal is narrowed to fit it, those columns cut with `…`,
 * the widest first, and a `short` column shows its short forms, never cut; into a pipe or a file, nothing is cut.
 */
export function printTable(
  header: string[],
  rows: (string | number)[][],
  empty = '(none)',
  options: { shrink?: readonly number[]; short?: ShortForms } = {},
): void {
  if (rows.length === 0) {
    print(empty);
    return;
  }
  // Escaped before measuring: a control character in stored text takes the width of its escape (`\x1b`).
  const cells = [header, ...rows.map((row) => row.map((cell) => visible(String(cell))))];
  const shortCells = options.short ? ['', ...options.short.cells.map(visible)] : [];
  const widths = header.map((_, column) => Math.max(...cells.map((row) => row[column]!.length)));
  const floors = new Map<number, number>();
  if (options.short) floors.set(options.short.column, Math.max(...shortCells.map((cell) => cell.length)));
  if (options.shrink) fitWidths(widths, header, options.shrink, outputWidth(), floors);
  const shown = (cell: string, column: number, row: number) => {
    const width = widths[column]!;
    if (cell.length <= width || column !== options.short?.column || row === 0) return cut(cell, width);
    return cut(shortCells[row]!, width);
  };
  print(
    ...cells.map((row, rowIndex) =>
      row
        .map((cell, column) => shown(cell, column, rowIndex).padEnd(widths[column]!))
        .join('  ')
        .trimEnd(),
    ),
  );
}

/** True when a person sits at the terminal: prompts are allowed. */
export function interactive(): boolean {
  return Boolean(process.stdin.isTTY && process.stdout.isTTY);
}

/**
 * Returns a password that must not be given on the command line (other users and the shell history see it): the
 * first line of standard input with `fromStdin` (a secrets file may end with a line break), else the environment
 * variable `env`, else a masked prompt asking `question` on a terminal. Undefined when none of those gives one.
 */
export async function secretInput(fromStdin: boolean, env: string, question: string): Promise<string | undefined> {
  if (fromStdin) {
    let text = '';
    for await (const chunk of process.stdin) text += chunk;
    return text.split(/\r?\n/, 1)[0];
  }
  if (process.env[env]) return process.env[env];
  if (!interactive()) return undefined;
  const { password } = await import('@inquirer/prompts');
  return password({ message: question, mask: '*' });
}

/** Collects a repeated option's values (`--label Vorname --label fr=Prénom`). */
export function collect(value: string, before: string[] | undefined): string[] {
  return [...(before ?? []), value];
}

/**
 * Splits a repeated text option into the practice's own text (a value without a language) and its texts in other
 * languages (`fr=Prénom`; `fr=` removes French's), or throws naming the option: two own texts, or a language twice.
 */
export function textsByLanguage(values: string[] | undefined, option: string): { own?: string; texts?: LocalTexts } {
  if (values === undefined) return {};
  const own: string[] = [];
  const texts: LocalTexts = {};
  for (const value of values) {
    const match = /^([a-z]{2})=([\s\S]*)$/.exec(value);
    if (!match || !isLocale(match[1])) {
      own.push(value);
      continue;
    }
    if (texts[match[1]] !== undefined) throw invalid(`${option} ${match[1]}=… is given twice: give each language once`);
    texts[match[1]] = match[2]!;
  }
  if (own.length > 1)
    throw invalid(
      `${option} is given ${own.length} times without a language: give the practice's own once, others as ${option} fr=…`,
    );
  return { ...(own.length ? { own: own[0] } : {}), ...(Object.keys(texts).length ? { texts } : {}) };
}

/** ` (fr "Prénom", it "Nome")`: a text's versions in other languages, as the commands print them ('' when none). */
export function languagesText(texts: LocalTexts): string {
  const given = Object.entries(texts).map(([locale, text]) => `${locale} "${text}"`);
  return given.length ? ` (${given.join(', ')})` : '';
}

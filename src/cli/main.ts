import { Command, CommanderError } from 'commander';
import packageJson from '../../package.json' with { type: 'json' };
import { AppError, invalid } from '../errors.ts';
import { registerCommands } from './commands.ts';
import { visible } from './terminal.ts';

/**
 * Returns the `planner` program with the commands `argv` needs registered: the one it runs (`registerCommands`: a
 * command loads only its own code), or all of them for the help and for a word that is no command.
 */
export async function createProgram(argv: string[]): Promise<Command> {
  const program = new Command('planner')
    .description('Self-hosted appointment booking: admin commands and the booking API server.')
    .version(packageJson.version, '-v, --version')
    .option('--db <file>', 'database file (default: $PLANNER_DB, else data/planner.db)')
    .showSuggestionAfterError()
    // One line on stderr, in the same voice as our own errors (a suggestion joins the line: `(Did you mean schedule?)`).
    .configureOutput({
      outputError: (text, write) =>
        write(
          `${visible(
            text
              .replace(/^error: /, 'planner: ')
              .trim()
              .replace(/\s*\n\s*/g, ' '),
          )}\n`,
        ),
    })
    .exitOverride();
  await registerCommands(program, argv.slice(2));
  return program;
}

/** Returns the one line to print for a failure: our errors as they are, others with a hint. */
function describe(failure: unknown): string {
  if (failure instanceof AppError) return failure.message;
  const error = failure as Error & { code?: string };
  if (error?.name === 'ExitPromptError') return 'cancelled; nothing was changed';
  if (error?.code === 'ERR_SQLITE_ERROR') return `database error: ${error.message}`;
  return `unexpected error: ${error?.message ?? String(failure)}`;
}

/**
 * Node decodes arguments as UTF-8 and puts U+FFFD where bytes are not: such an argument (`$'bad\\xff'`, a file
 * name in Latin-1) would be stored with the replacement character. Refused instead, before anything runs.
 */
function checkArguments(argv: string[]): void {
  const bad = argv.find((argument) => argument.includes('\uFFFD'));
  if (bad !== undefined) {
    throw invalid(
      `the argument ${JSON.stringify(bad)} is not valid UTF-8 text (\uFFFD marks the bytes that are not): write it in UTF-8`,
    );
  }
}

/**
 * A reader that stops early (`planner bookings list | head -1`) closes the pipe, and the next write fails with
 * EPIPE, which Node raises as an 'error' event: unhandled, a crash with a stack trace. The reader wanted
 * no more: the rest of the output goes nowhere, the command finishes (a change it makes is made, or not, exactly as
 * without the pipe) and exits with its own code. Any other failure to write is one line and exit 1.
 */
function quietWhenReaderLeaves(stream: NodeJS.WriteStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') return;
    if (stream !== process.stderr) process.stderr.write(`planner: cannot write the output: ${error.message}\n`);
    process.exitCode = 1;
  });
}

/**
 * Returns `argv` with a `help <command…>` turned into what commander reads: `planner help schedule set` and
 * `planner schedule help set` become `planner schedule set --help` (commander's own help command looks one level
 * down only). A name that is no command is left without `--help`, so that commander refuses it as an unknown
 * command, with its suggestion, and exit 1 (commander would show the group's help instead).
 */
function helpArguments(program: Command, argv: string[]): string[] {
  const words = argv.slice(2);
  // Where the command names are: not options, nor the value of --db (the one option before a command that takes one).
  const names = words.flatMap((word, index) => (word.startsWith('-') || words[index - 1] === '--db' ? [] : [index]));
  const find = (from: Command, name: string) =>
    from.commands.find((candidate) => candidate.name() === name || candidate.aliases().includes(name));
  let current = program;
  for (const [position, index] of names.entries()) {
    const word = words[index]!;
    if (word !== 'help' || current.commands.length === 0) {
      const next = find(current, word);
      if (next === undefined || next.commands.length === 0) return argv; // a command to run, or an unknown one
      current = next;
      continue;
    }
    const without = [...argv.slice(0, 2), ...words.slice(0, index), ...words.slice(index + 1)];
    let target = current;
    for (const rest of names.slice(position + 1)) {
      if (target.commands.length === 0) break; // the rest are a command's arguments: its help is the answer
      const next = find(target, words[rest]!);
      if (next === undefined) return without;
      target = next;
    }
    return [...without, '--help'];
  }
  return argv;
}

async function main(argv: string[]): Promise<number> {
  quietWhenReaderLeaves(process.stdout);
  quietWhenReaderLeaves(process.stderr);
  try {
    checkArguments(argv.slice(2));
    const program = await createProgram(argv);
    await program.parseAsync(helpArguments(program, argv));
    return 0;
  } catch (failure) {
    // commander has printed its own one-line message (or help/version) already.
    if (failure instanceof CommanderError) return failure.exitCode;
    process.stderr.write(`planner: ${visible(describe(failure))}\n`); // a message may quote stored or typed text
    if (process.env.PLANNER_DEBUG && failure instanceof Error) process.stderr.write(`${failure.stack}\n`);
    return 1;
  }
}

// No top-level await: the single executable runs this file as CommonJS.
void main(process.argv).then((code) => {
  if (code !== 0 || process.exitCode === undefined) process.exitCode = code; // a report (doctor) may have set 1
  // The command is done. Whatever still holds the event loop a second later (a client connection that outlived
  // `planner serve`'s grace period) must not keep the process alive. Unref'd: a process that ends by itself
  // never waits for it. Here, not in an action, so that the root stays the one place that ends the process.
  setTimeout(() => process.exit(), 1000).unref();
});

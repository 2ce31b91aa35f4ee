/**
 * `planner serve`'s access log on stdout, without a system call per request: lines are joined into batches of
 * BATCH_CHARS, each batch goes into a buffer (sonic-boom, pino's destination), written when it holds FLUSH_BYTES, at
 * least every FLUSH_MS (a line waits at most half of it to join the buffer, then half of it there), when the server
 * stops (SIGTERM, SIGINT: `close`) and, synchronously, when the process exits on its own. A `kill -9` loses at most the
 * last FLUSH_MS of lines (never data: the log is not where bookings are kept). A reader that does not keep up (a
 * stuck journal) never holds the server: past MAX_BUFFER_BYTES lines are dropped, said once on stderr; nor its stop
 * (STOP_RETRIES). A reader that goes away (EPIPE) ends the log, said once, not the process.
 */
import sonicBoom from 'sonic-boom';
import type { AccessEntry } from '../http/app.ts';

/** The class: the package is CommonJS, its default export is the constructor (its types say otherwise). */
const SonicBoom = sonicBoom as unknown as typeof import('sonic-boom').SonicBoom;

/**
 * A batch of lines as sonic-boom's buffer mode takes it (its types name strings only). Not its text mode: that
 * measures the byte length of the whole waiting text at every write, and the text is a new string each time, so a
 * buffer of 150 lines was copied 150 times (the log cost 24 % of GET /schedules with it, 6 to 10 % with a buffer per
 * line). A buffer per batch, not per line: a Buffer made per request was the log's largest cost after that (issue 49).
 */
const asChunk = (lines: string) => Buffer.from(lines) as unknown as string;

/** Lines are joined in a string until it has this many characters (about 15 lines), then handed on as one buffer. */
const BATCH_CHARS = 1024;

/** The longest a line waits in the buffer. */
export const FLUSH_MS = 100;
/** A buffer this full is written at once. */
const FLUSH_BYTES = 8 * 1024; // below sonic-boom's largest single write (16 KiB)
/** The most the buffer holds while stdout does not take it; beyond, lines are dropped. */
const MAX_BUFFER_BYTES = 16 * 1024 * 1024;
/** How often the stop's last write is tried again, 100 ms apart, while stdout takes nothing. */
const STOP_RETRIES = 10;

/** An access log: `write` one request's entry; `close` writes what waits (before the process stops), in order. */
export interface AccessLog {
  write(entry: AccessEntry): void;
  close(): Promise<void>;
}

/** The line of an entry in `format`: text (`time method path status ms`) or JSON. */
export function accessLine(entry: AccessEntry, format: 'text' | 'json'): string {
  return format === 'json'
    ? `${JSON.stringify(entry)}\n`
    : `${entry.time} ${entry.method} ${entry.path} ${entry.status} ${entry.ms}ms\n`;
}

/** Opens the access log on file descriptor `fd` (stdout) in `format`. */
export function openAccessLog(
  format: 'text' | 'json',
  fd = 1,
  warn: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): AccessLog {
  // Node makes stdout's pipe or socket non-blocking when it first uses it (the server prints its address there); it
  // is asked here too, so that a reader that stops reading makes a write wait and retry (EAGAIN) instead of blocking.
  if (fd === 1) void process.stdout;
  const out = new SonicBoom({
    fd,
    minLength: FLUSH_BYTES,
    maxLength: MAX_BUFFER_BYTES,
    periodicFlush: FLUSH_MS / 2,
    sync: false,
    contentMode: 'buffer',
  });
  let dropped = 0;
  out.on('drop', () => {
    if (dropped++ === 0)
      warn('planner: stdout does not take the access log fast enough: lines are dropped until it does');
  });
  let closed = false;
  let batch = '';
  /** Hands the lines that wait in `batch` to the buffer. */
  const push = () => {
    if (batch === '') return;
    out.write(asChunk(batch));
    batch = '';
  };
  // A quiet server's last lines join the buffer within half of FLUSH_MS (sonic-boom writes them within the other).
  const batching = setInterval(() => closed || push(), FLUSH_MS / 2).unref();
  // A reader that went away (EPIPE: the journal restarted, a pipe closed) ends the log, never the process.
  out.on('error', (error: NodeJS.ErrnoException) => {
    if (closed) return;
    closed = true;
    warn(`planner: the access log cannot be written (${error.code ?? error.message}): it stops until planner restarts`);
  });
  const flushNow = () => {
    if (closed) return;
    closed = true;
    clearInterval(batching);
    // At the stop, a reader that does not read gets STOP_RETRIES retries, 100 ms apart, rather than forever.
    (out as unknown as { maxWriteRetries: number }).maxWriteRetries = STOP_RETRIES;
    try {
      push();
      out.flushSync();
    } catch {
      // stdout gone, or not taking anything: what waits is lost, as in a kill -9
    }
  };
  process.once('exit', flushNow); // a process that ends on its own (an error at the root) writes what waits
  return {
    write: (entry) => {
      if (closed) return;
      batch += accessLine(entry, format);
      if (batch.length >= BATCH_CHARS) push();
    },
    close: () =>
      new Promise<void>((resolve) => {
        process.off('exit', flushNow);
        clearInterval(batching);
        if (closed) {
          out.destroy();
          resolve();
          return;
        }
        push();
        closed = true;
        // After the write in flight, not beside it: flushSync writes what waits at once, which can land before a
        // write still in flight (a CI run saw line 4,545 of 20,000 come last). A reader that reads nothing gets
        // STOP_RETRIES × 100 ms; what still waits then is lost, as in a kill -9.
        const finish = () => {
          clearTimeout(timer);
          out.destroy();
          resolve();
        };
        const timer = setTimeout(finish, STOP_RETRIES * 100);
        out.flush(finish);
      }),
  };
}

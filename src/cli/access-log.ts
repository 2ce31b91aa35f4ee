/**
 * `planner serve`'s access log on stdout, without a system call per request: each line goes into a buffer
 * (sonic-boom, pino's destination), written when it holds FLUSH_BYTES, at least every FLUSH_MS, when the server stops
 * (SIGTERM, SIGINT: `close`) and, synchronously, when the process exits on its own. A `kill -9` loses at most the
 * last FLUSH_MS of lines (never data: the log is not where bookings are kept). A reader that does not keep up (a
 * stuck journal) never holds the server: past MAX_BUFFER_BYTES lines are dropped, said once on stderr; nor its stop
 * (STOP_RETRIES). A reader that goes away (EPIPE) ends the log, said once, not the process.
 */
import sonicBoom from 'sonic-boom';
import type { AccessEntry } from '../http/app.ts';

/** The class: the package is CommonJS, its default export is the constructor (its types say otherwise). */
const SonicBoom = sonicBoom as unknown as typeof import('sonic-boom').SonicBoom;

/**
 * A line as sonic-boom's buffer mode takes it (its types name strings only). Not its text mode: that measures the
 * byte length of the whole waiting text at every write, and the text is a new string each time, so a buffer of 150
 * lines was copied 150 times (the log cost 24 % of GET /schedules with it, 6 to 10 % with buffers).
 */
const asChunk = (line: string) => Buffer.from(line) as unknown as string;

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
    periodicFlush: FLUSH_MS,
    sync: false,
    contentMode: 'buffer',
  });
  let dropped = 0;
  out.on('drop', () => {
    if (dropped++ === 0)
      warn('planner: stdout does not take the access log fast enough: lines are dropped until it does');
  });
  let closed = false;
  // A reader that went away (EPIPE: the journal restarted, a pipe closed) ends the log, never the process.
  out.on('error', (error: NodeJS.ErrnoException) => {
    if (closed) return;
    closed = true;
    warn(`planner: the access log cannot be written (${error.code ?? error.message}): it stops until planner restarts`);
  });
  const flushNow = () => {
    if (closed) return;
    closed = true;
    // At the stop, a reader that does not read gets STOP_RETRIES retries, 100 ms apart, rather than forever.
    (out as unknown as { maxWriteRetries: number }).maxWriteRetries = STOP_RETRIES;
    try {
      out.flushSync();
    } catch {
      // stdout gone, or not taking anything: what waits is lost, as in a kill -9
    }
  };
  process.once('exit', flushNow); // a process that ends on its own (an error at the root) writes what waits
  return {
    write: (entry) => {
      if (!closed) out.write(asChunk(accessLine(entry, format)));
    },
    close: () =>
      new Promise<void>((resolve) => {
        process.off('exit', flushNow);
        if (closed) {
          out.destroy();
          resolve();
          return;
        }
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

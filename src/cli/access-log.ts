/**
 * `planner serve`'s access log on stdout (issue 39), without a system call per request: each line goes into a buffer
 * (sonic-boom, pino's destination), written when it holds FLUSH_BYTES, at least every FLUSH_MS, when the server stops
 * (SIGTERM, SIGINT: `close`) and, synchronously, when the process exits on its own. A `kill -9` loses at most the
 * last FLUSH_MS of lines (never data: the log is not where bookings are kept). A reader that does not keep up (a
 * stuck journal) never holds the server: past MAX_BUFFER_BYTES lines are dropped, and the drop is counted and said
 * once on stderr.
 */
import sonicBoom from 'sonic-boom';
import type { AccessEntry } from '../http/app.ts';

/** The class: the package is CommonJS, its default export is the constructor (its types say otherwise). */
const SonicBoom = sonicBoom as unknown as typeof import('sonic-boom').SonicBoom;

/** The longest a line waits in the buffer. */
export const FLUSH_MS = 100;
/** A buffer this full is written at once. */
const FLUSH_BYTES = 8 * 1024; // below sonic-boom's largest single write (16 KiB)
/** The most the buffer holds while stdout does not take it; beyond, lines are dropped. */
const MAX_BUFFER_BYTES = 16 * 1024 * 1024;

/** An access log: `write` one request's entry; `close` writes what waits (before the process stops). */
export interface AccessLog {
  write(entry: AccessEntry): void;
  close(): void;
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
  const out = new SonicBoom({
    fd,
    minLength: FLUSH_BYTES,
    maxLength: MAX_BUFFER_BYTES,
    periodicFlush: FLUSH_MS,
    sync: false,
  });
  let dropped = 0;
  out.on('drop', () => {
    if (dropped++ === 0)
      warn('planner: stdout does not take the access log fast enough: lines are dropped until it does');
  });
  let closed = false;
  const flushNow = () => {
    if (closed) return;
    closed = true;
    try {
      out.flushSync();
    } catch {
      // stdout gone (its reader died): nothing left to write to
    }
  };
  process.once('exit', flushNow); // a process that ends on its own (an error at the root) writes what waits
  return {
    write: (entry) => {
      if (!closed) out.write(accessLine(entry, format));
    },
    close: () => {
      process.off('exit', flushNow);
      flushNow();
      out.destroy();
    },
  };
}

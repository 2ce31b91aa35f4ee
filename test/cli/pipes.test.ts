/**
 * A reader that closes early (`planner hours show 1 | head -1` crashed with an EPIPE stack trace)
 * must leave no stack trace and an exit code as without it.
 */
import { execFile, spawn } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { insertBooking } from '../../src/store/bookings.ts';
import { insertCustomer } from '../../src/store/customers.ts';
import { openStore } from '../../src/store/db.ts';
import { BIN, cliOk, initDb, ROOT, tempDb } from '../helpers.ts';

/** Enough rows that the listing (some 400 KB) is far larger than a pipe holds (64 KB): the writer must wait for the reader. */
const ROWS = 3000;

/**
 * Runs the CLI with its stdout on a pipe that the reading end closes as soon as the first bytes arrive; resolves
 * with the exit code, what came on stderr and how many bytes were read.
 */
function readFirstChunkAndClose(
  db: string,
  ...args: string[]
): Promise<{ code: number | null; stderr: string; read: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args, '--db', db], {
      cwd: ROOT,
      env: { ...process.env, PLANNER_DB: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let read = 0;
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.stdout.once('data', (chunk: Buffer) => {
      read = chunk.length;
      child.stdout.destroy(); // the reader leaves, the rest of the listing has nowhere to go
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr, read }));
  });
}

/** Runs `planner … | head -1` in a shell; resolves with the planner's exit code (PIPESTATUS) and its stderr. */
function pipeIntoHead(db: string, ...args: string[]): Promise<{ code: number; stderr: string; stdout: string }> {
  const quoted = [process.execPath, BIN, ...args, '--db', db]
    .map((part) => `'${part.replace(/'/g, `'\\''`)}'`)
    .join(' ');
  return new Promise((resolve) => {
    execFile(
      'bash',
      ['-c', `${quoted} | head -1; exit "\${PIPESTATUS[0]}"`],
      { cwd: ROOT, env: { ...process.env, PLANNER_DB: '' } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stderr, stdout }),
    );
  });
}

describe('a reader that closes the pipe early', () => {
  const db = tempDb();
  beforeAll(async () => {
    await initDb(db);
    await cliOk(db, 'schedule', 'add', 'Dr. Weber');
    await cliOk(db, 'reason', 'add', '1', 'Consultation', '--duration', '30');
    await cliOk(db, 'hours', 'set', '1', 'mon-fri', '08:00-12:00');
    const store = openStore(db);
    try {
      store.tx(() => {
        for (let i = 0; i < ROWS; i++) {
          const email = `customer${i}@example.com`;
          const startAt = Date.parse('2100-01-01T08:00:00Z') / 1000 + i * 1800;
          insertBooking(store, {
            reference: `PIPE${String(i).padStart(12, '0')}`,
            scheduleId: 1,
            reasonId: 1,
            customerId: insertCustomer(store, email, '2026-01-01T00:00:00Z'),
            startAt,
            endAt: startAt + 1800,
            submission: { first_name: 'Ada', last_name: `Lovelace ${i}`, email, phone: '+49 30 1234567' },
            source: 'api',
            createdAt: '2026-01-01T00:00:00Z',
            buffers: { before: 0, after: 0 },
          });
        }
      });
    } finally {
      store.close();
    }
  });

  it('ends a long listing quietly: no stack trace, exit 0, every time', async () => {
    for (let run = 0; run < 5; run++) {
      const result = await readFirstChunkAndClose(db, 'bookings', 'list', '--from', '2099-01-01');
      expect(result.read).toBeGreaterThan(0);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
    }
  });

  it.each([['hours show 1', ['hours', 'show', '1'], 'mon  08:00-12:00']])(
    '%s | head -1: the first line, nothing on stderr, exit 0',
    async (_name, args, first) => {
      for (let run = 0; run < 5; run++) {
        const result = await pipeIntoHead(db, ...args);
        expect(result.stdout.startsWith(first)).toBe(true);
        expect(result.stderr).toBe('');
        expect(result.code).toBe(0);
      }
    },
  );
});

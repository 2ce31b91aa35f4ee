/**
 * The access log's writer (issue 39), in a process of its own writing to a pipe as `planner serve` writes to the
 * journal's: every line arrives when the reader reads; a reader that stops reading never holds the process (lines
 * beyond the buffer's bound are dropped, said once on stderr), nor its stop; a reader that goes away (EPIPE) costs
 * the log, not the process.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { onCleanup, watchOutput } from '../helpers.ts';

const WRITER = join(import.meta.dirname, 'fixtures/access-log-writer.ts');

/** Starts the writer with `lines` lines to write; its stdout is a pipe this process reads only when told. */
function startWriter(lines: number) {
  const child = spawn(process.execPath, [WRITER], {
    env: { ...process.env, LINES: String(lines) },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  onCleanup(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const said = async (line: string) => {
    while (!stderr.split('\n').includes(line)) {
      if (child.exitCode !== null) throw new Error(`the writer exited with ${child.exitCode}: ${stderr}`);
      await once(child.stderr!, 'data');
    }
  };
  return { child, said, stderr: () => stderr };
}

/** Waits for the writer to have written everything, closes its log, waits for its exit 0; returns its warnings. */
async function closedAfterWriting(writer: ReturnType<typeof startWriter>): Promise<string[]> {
  await writer.said('written');
  writer.child.stdin!.write('close\n');
  await writer.said('closed');
  const [code] = (await once(writer.child, 'exit')) as [number];
  expect(code).toBe(0);
  return writer
    .stderr()
    .split('\n')
    .filter((line) => line.startsWith('planner:'));
}

describe('the access log on a pipe', () => {
  it('every line reaches a reader that reads, in order, by the stop at the latest', async () => {
    const writer = startWriter(20_000);
    const { output } = watchOutput(writer.child, 'access-log writer');
    await writer.said('written');
    writer.child.stdin!.write('close\n');
    await writer.said('closed');
    await once(writer.child, 'exit');
    const lines = output()
      .split('\n')
      .filter((line) => line.includes(' GET '));
    expect(lines.length).toBe(20_000);
    // Every line in its place: a stop that wrote what waited beside a write in flight put lines out of order.
    const misplaced = lines.findIndex(
      (line, index) => line !== `2026-11-25T08:00:00.000Z GET /api/slots/${index} 200 0.42ms`,
    );
    expect(misplaced).toBe(-1);
    expect(lines[0]).toBe('2026-11-25T08:00:00.000Z GET /api/slots/0 200 0.42ms');
    expect(lines.at(-1)).toBe('2026-11-25T08:00:00.000Z GET /api/slots/19999 200 0.42ms');
  });

  it("a quiet server's last line reaches the reader while it runs, not only at the stop", async () => {
    // One line: far from a batch or a buffer's worth, so only the periodic hand-on and write bring it out.
    const writer = startWriter(1);
    const { waitFor } = watchOutput(writer.child, 'access-log writer');
    await writer.said('written');
    await waitFor(/2026-11-25T08:00:00\.000Z GET \/api\/slots\/0 200 0\.42ms\n/);
    expect(writer.stderr()).not.toContain('closed'); // it came before the stop was asked for
    expect(await closedAfterWriting(writer)).toEqual([]);
  });

  it('a reader that stops reading holds neither the writing nor the stop: lines past 16 MiB are dropped, said once', async () => {
    // About 27 MiB of lines into a pipe nobody reads (the kernel's pipe holds 64 KiB).
    const writer = startWriter(500_000);
    writer.child.stdout!.pause();
    expect(await closedAfterWriting(writer)).toEqual([
      'planner: stdout does not take the access log fast enough: lines are dropped until it does',
    ]);
  });

  it('a reader that goes away (EPIPE) costs the log, not the process: one line on stderr, a clean stop', async () => {
    const writer = startWriter(200_000);
    writer.child.stdout!.destroy();
    expect(await closedAfterWriting(writer)).toEqual([
      expect.stringMatching(/^planner: the access log cannot be written \(EPIPE\)/),
    ]);
  });
});

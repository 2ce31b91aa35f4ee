import type { Socket } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, bookableDb, rawSocket, type ServerProcess, serve, socketClosed, tempDb } from '../helpers.ts';

/** Writes `text` one character every `everyMs` until the socket closes or the text ends (bounded by its length). */
async function drip(socket: Socket, text: string, everyMs: number): Promise<void> {
  for (const char of text) {
    if (socket.destroyed || socket.writableEnded) return;
    socket.write(char);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/**
 * Slow clients are held to the wall clock, so their bounds are too; what a loaded machine must not decide is
 * measured against a reference in the same run: the same clients sent at the same time to a second server on the
 * same file with `--timeout 8`. Each is cut off by its own server's time-out, never before it (a lower bound no load
 * can break), and the 2 s server's well before the 8 s server's: at most 0.6 of its time (about 0.3; the same load
 * on both). A server whose time-out did not follow `--timeout` cuts both off alike, at its default 10 s or Node's
 * 60 s (a ratio near 1, or the test's own time-out), and fails.
 */
const WITHIN = 0.6;

describe('slow clients (planner serve --timeout 2, beside --timeout 8)', () => {
  const db = tempDb();
  let token: string;
  let server: ServerProcess;
  let reference: ServerProcess;
  beforeAll(async () => {
    token = await bookableDb(db);
    [server, reference] = await Promise.all([
      serve(db, {}, ['--timeout', '2', '--log', 'off']),
      serve(db, {}, ['--timeout', '8', '--log', 'off']),
    ]);
  });

  /** Opens `count` connections to `url` and drips `text` into each, one byte every 200 ms; resolves with how each ended. */
  async function dripped(url: string, count: number, head: string, text: string, started: number) {
    const sockets = await Promise.all(Array.from({ length: count }, () => rawSocket(url)));
    const ends = sockets.map((socket) => socketClosed(socket, started));
    for (const socket of sockets) {
      socket.write(head);
      void drip(socket, text, 200);
    }
    return Promise.all(ends);
  }

  it('cuts off 50 slowloris connections dripping headers after the time-out, while others are served at once', async () => {
    // One header byte every 200 ms: each byte keeps an idle time-out happy, only a deadline stops it (bounded: 60
    // bytes, 12 s: longer than either time-out).
    const headers = `GET /api/schedules HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nX-Pad: ${'a'.repeat(40)}\r\n\r\n`;
    const started = performance.now();
    const cut = dripped(server.url, 50, '', headers.slice(0, 60), started);
    const referenceCut = dripped(reference.url, 10, '', headers.slice(0, 60), started);

    // Meanwhile a normal client is served as usual.
    const answer = await api(server.url, '/api/schedules', token);
    expect(answer.status).toBe(200);

    const [results, referenceResults] = await Promise.all([cut, referenceCut]);
    for (const { text } of [...results, ...referenceResults]) {
      expect(text).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
      expect(text.endsWith('{"error":"Request Timeout"}')).toBe(true);
    }
    const last = Math.max(...results.map((result) => result.ms));
    const referenceFirst = Math.min(...referenceResults.map((result) => result.ms));
    process.stderr.write(
      `slowloris: cut off after ${Math.round(Math.min(...results.map((result) => result.ms)))}-${Math.round(last)} ms (--timeout 2), the first at ${Math.round(referenceFirst)} ms (--timeout 8)\n`,
    );
    for (const { ms } of results) expect(ms).toBeGreaterThan(1_900);
    expect(referenceFirst).toBeGreaterThan(7_900);
    expect(last / referenceFirst).toBeLessThan(WITHIN); // each time-out checked every second: 2-3 s against 8-9 s
  });

  it('answers a body sent too slowly with 400 JSON and closes the connection', async () => {
    const body = JSON.stringify({ schedule: 1, reason: 1, slot: '2030-01-01 09:00:00', submission: {} });
    const head = `POST /api/bookings HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    // 30 bytes in 6 s, then nothing: never whole within either time-out.
    const started = performance.now();
    const [own, referenceEnds] = await Promise.all([
      dripped(server.url, 1, head, body.slice(0, 30), started),
      dripped(reference.url, 1, head, body.slice(0, 30), started),
    ]);
    const { text, ms } = own[0]!;
    const referenceEnd = referenceEnds[0]!;
    process.stderr.write(
      `slow body: answered after ${Math.round(ms)} ms (--timeout 2), ${Math.round(referenceEnd.ms)} ms (--timeout 8)\n`,
    );
    const [headLines, json] = text.split('\r\n\r\n');
    expect(headLines).toMatch(/^HTTP\/1\.1 400 Bad Request/);
    expect(headLines!.toLowerCase()).toContain('connection: close');
    expect(JSON.parse(json!)).toEqual({ error: 'Body not received within 2 s' });
    expect(JSON.parse(referenceEnd.text.split('\r\n\r\n')[1]!)).toEqual({ error: 'Body not received within 8 s' });
    expect(ms).toBeGreaterThan(1_900);
    expect(referenceEnd.ms).toBeGreaterThan(7_900);
    expect(ms / referenceEnd.ms).toBeLessThan(WITHIN);
  });

  it('answers malformed requests and oversized headers with a JSON error, never a raw socket error', async () => {
    const socket = await rawSocket(server.url);
    const end = socketClosed(socket, performance.now());
    socket.write('NOT HTTP AT ALL\r\n\r\n');
    const { text } = await end;
    expect(text).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(text.endsWith('{"error":"Bad Request"}')).toBe(true);

    const big = await rawSocket(server.url);
    const bigEnd = socketClosed(big, performance.now());
    big.write(`GET /api/schedules HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`);
    const answer = await bigEnd;
    expect(answer.text).toMatch(/^HTTP\/1\.1 431 /);
    expect(answer.text.endsWith('{"error":"Request Header Fields Too Large"}')).toBe(true);
  });
});

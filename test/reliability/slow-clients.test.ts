import type { Socket } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, bookableDb, rawSocket, serve, socketClosed, tempDb, type ServerProcess } from '../helpers.ts';

/** Writes `text` one character every `everyMs` until the socket closes or the text ends (bounded by its length). */
async function drip(socket: Socket, text: string, everyMs: number): Promise<void> {
  for (const char of text) {
    if (socket.destroyed || socket.writableEnded) return;
    socket.write(char);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

describe('slow clients (planner serve --timeout 2)', () => {
  const db = tempDb();
  let token: string;
  let server: ServerProcess;
  beforeAll(async () => {
    token = await bookableDb(db);
    server = await serve(db, {}, ['--timeout', '2', '--log', 'off']);
  });

  it('cuts off 50 slowloris connections dripping headers after the time-out, while others are served at once', async () => {
    const started = performance.now();
    const sockets = await Promise.all(Array.from({ length: 50 }, () => rawSocket(server.url)));
    const ends = sockets.map((socket) => socketClosed(socket, started));
    // One header byte every 200 ms: each byte keeps an idle time-out happy, only a deadline stops it (bounded: 60 bytes).
    const headers = `GET /api/schedules HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nX-Pad: ${'a'.repeat(40)}\r\n\r\n`;
    for (const socket of sockets) void drip(socket, headers.slice(0, 60), 200);

    // Meanwhile a normal client is served as usual.
    const answer = await api(server.url, '/api/schedules', token);
    expect(answer.status).toBe(200);

    const results = await Promise.all(ends);
    for (const { text, ms } of results) {
      expect(text).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
      expect(text.endsWith('{"error":"Request Timeout"}')).toBe(true);
      expect(ms).toBeGreaterThan(1_900);
      expect(ms).toBeLessThan(4_500); // 2 s time-out, checked every second
    }
  });

  it('answers a body sent too slowly with 400 JSON and closes the connection', async () => {
    const socket = await rawSocket(server.url);
    const started = performance.now();
    const end = socketClosed(socket, started);
    const body = JSON.stringify({ schedule: 1, reason: 1, slot: '2030-01-01 09:00:00', submission: {} });
    socket.write(
      `POST /api/bookings HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    void drip(socket, body.slice(0, 30), 200); // 30 bytes in 6 s: never whole within 2 s
    const { text, ms } = await end;
    const [head, json] = text.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 400 Bad Request/);
    expect(head!.toLowerCase()).toContain('connection: close');
    expect(JSON.parse(json!)).toEqual({ error: 'Body not received within 2 s' });
    expect(ms).toBeGreaterThan(1_900);
    expect(ms).toBeLessThan(4_500);
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

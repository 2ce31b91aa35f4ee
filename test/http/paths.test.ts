/**
 * Only the canonical path answers; HEAD answers as GET; CONNECT gets an answer (issue 18, finding 6). On a real
 * server over raw sockets, since an HTTP client would normalise the very paths under test.
 */
import { describe, expect, it } from 'vitest';
import { api, bookableDb, rawSocket, serve, socketClosed, tempDb } from '../helpers.ts';

/** Sends one raw request and returns the status, the headers (lower-case) and the body text. */
async function raw(url: string, requestLine: string, headers: string[] = []) {
  const socket = await rawSocket(url);
  const closed = socketClosed(socket, performance.now());
  socket.write(
    `${requestLine}\r\nHost: 127.0.0.1\r\n${headers.map((header) => `${header}\r\n`).join('')}Connection: close\r\n\r\n`,
  );
  const { text } = await closed;
  const [head = '', body = ''] = text.split('\r\n\r\n');
  const [statusLine, ...lines] = head.split('\r\n');
  const fields = new Map(
    lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  return { status: Number(statusLine!.split(' ')[1]), headers: fields, body };
}

describe('serve: request paths and methods', () => {
  it('answers only the canonical path: dot segments, encoded letters, backslashes and a trailing slash are 404', async () => {
    const db = tempDb();
    const token = await bookableDb(db);
    const server = await serve(db);
    const auth = `Authorization: Bearer ${token}`;
    expect((await raw(server.url, 'GET /api/schedules HTTP/1.1', [auth])).status).toBe(200);
    // RFC 9112 §3.2.2: the absolute form of the same target is the same request.
    expect((await raw(server.url, 'GET http://127.0.0.1/api/schedules HTTP/1.1', [auth])).status).toBe(200);
    expect((await raw(server.url, 'GET http://127.0.0.1/api/%73chedules HTTP/1.1', [auth])).status).toBe(404);
    for (const path of [
      '/api/../api/schedules',
      '/api/./schedules',
      '/api/%2e%2e/api/schedules',
      '/api/%73chedules',
      '/api/SCHEDULES',
      '/api\\schedules',
      '/api/schedules/',
      '/api/schedules/.',
      '/api//schedules',
      '/api/reasons/?schedule=1',
      '/api/%2e%2e/api/openapi.json',
      '/api/openapi.json/',
    ]) {
      const answer = await raw(server.url, `GET ${path} HTTP/1.1`, [auth]);
      expect([path, answer.status, answer.body]).toEqual([path, 404, '{"error":"Not Found"}']);
    }
    // Unknown paths still sit behind the gates, as every other unknown path does.
    expect((await raw(server.url, 'GET /api/%73chedules HTTP/1.1')).status).toBe(401);
  });

  it('answers HEAD as GET, without a body, on every GET call and the OpenAPI document', async () => {
    const db = tempDb();
    const token = await bookableDb(db);
    const server = await serve(db);
    const auth = `Authorization: Bearer ${token}`;
    const day = (await api(server.url, '/api/days?schedule=1&reason=1', token)).body.data[0];
    for (const path of [
      '/api/schedules',
      '/api/reasons?schedule=1',
      '/api/days?schedule=1&reason=1',
      `/api/slots?schedule=1&reason=1&day=${day}`,
      `/api/forms?schedule=1&reason=1&slot=${day}%2012:00:00`,
      '/api/reasons?schedule=abc',
      '/api/openapi.json',
    ]) {
      const get = await raw(server.url, `GET ${path} HTTP/1.1`, [auth]);
      const head = await raw(server.url, `HEAD ${path} HTTP/1.1`, [auth]);
      expect([path, head.status]).toEqual([path, get.status]);
      expect(head.body).toBe('');
      expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
      // RFC 9110 §8.6: a HEAD answer may leave Content-Length out; if it sends one, it is GET's.
      expect([undefined, String(Buffer.byteLength(get.body, 'latin1'))]).toContain(head.headers.get('content-length')); // read as latin1: a byte a character
    }
    expect((await raw(server.url, 'HEAD /api/schedules HTTP/1.1')).status).toBe(401);
  });

  it('answers CONNECT with the JSON 404 instead of closing the connection unanswered', async () => {
    const db = tempDb();
    await bookableDb(db);
    const server = await serve(db);
    const answer = await raw(server.url, 'CONNECT 127.0.0.1:22 HTTP/1.1');
    expect(answer.status).toBe(404);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(answer.body).toBe('{"error":"Not Found"}');
    expect((await api(server.url, '/api/nothing')).status).toBe(401); // the server carries on
  });
});

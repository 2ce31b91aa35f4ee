/**
 * JSON answers of the API. Every answer is `no-store` and carries no CORS headers (spec §1).
 * They are srvx's FastResponse: h3 hands those to Node without copying headers or streaming the body.
 */
import { STATUS_CODES } from 'node:http';
import { FastResponse } from 'srvx/node';

export type ExtraHeaders = Record<string, string>;

/**
 * Returns a JSON answer from text that is already JSON (answers cached once per data generation). Its length is
 * sent: without it Node frames the body in chunks, and every answer cost a second write to the socket (the
 * terminating chunk), which the profile of GET /schedules showed as the largest share after the syscalls themselves.
 */
export function jsonText(status: number, text: string, headers?: ExtraHeaders): Response {
  return new FastResponse(text, {
    status,
    statusText: STATUS_CODES[status],
    headers: jsonHeaders(text, headers),
  }) as Response;
}

/** Returns the headers of a JSON answer whose body is `text`, with `headers` after the API's own. */
export function jsonHeaders(text: string, headers?: ExtraHeaders): ExtraHeaders {
  return {
    'content-type': 'application/json',
    'cache-control': 'no-store',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  };
}

/** Returns a JSON answer with `status`, the body and extra headers. */
export function json(status: number, body: unknown, headers?: ExtraHeaders): Response {
  return jsonText(status, JSON.stringify(body), headers);
}

/** Returns the spec's error body `{"error": message}` (spec §7), with `field` where one is named. */
export function errorBody(message: string, field?: string): { error: string; field?: string } {
  return field === undefined ? { error: message } : { error: message, field };
}

/** JSON answers of the API. Every answer is `no-store` and carries no CORS headers (spec §1). */
import { STATUS_CODES } from 'node:http';

const BASE_HEADERS = { 'content-type': 'application/json', 'cache-control': 'no-store' } as const;

/** Returns a JSON response with `status`, the body and extra headers. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, statusText: STATUS_CODES[status], headers: { ...BASE_HEADERS, ...headers } });
}

/** Returns the spec's error answer `{"error": message}` (spec §7), with `field` where one is named. */
export function error(status: number, message: string, extra: { field?: string; headers?: Record<string, string> } = {}): Response {
  const body = extra.field === undefined ? { error: message } : { error: message, field: extra.field };
  return json(status, body, extra.headers);
}

export const NOT_FOUND = 'Not Found';

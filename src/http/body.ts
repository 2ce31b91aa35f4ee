/** Reading the JSON body of POST /bookings: its type, its size, its deadline, its encoding and its syntax. */
import type { H3Event } from 'h3';
import { bodyTooLarge, bodyTooSlow, HTTP_ERRORS } from './errors.ts';
import { failure, type Reply } from './handle.ts';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads the body as UTF-8 text, refusing more than `limit` bytes (413) as they arrive, and a body that does not
 * arrive whole within `deadlineMs` (400, and the connection is closed: a slow client cannot hold it).
 */
export async function readBodyText(event: H3Event, limit: number, deadlineMs: number): Promise<string | Reply> {
  const tooLarge = () => failure(bodyTooLarge(limit));
  const declared = Number(event.req.headers.get('content-length') ?? 0);
  if (declared > limit) return tooLarge();
  // Behind node:http, read Node's own request stream: the Web-stream adapter costs more than the booking.
  const body: AsyncIterable<Uint8Array> | null = event.runtime?.node?.req ?? event.req.body;
  if (!body) return '';
  const read = async (): Promise<string | Reply> => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of body) {
      size += chunk.byteLength;
      if (size > limit) return tooLarge();
      chunks.push(chunk);
    }
    try {
      return utf8.decode(Buffer.concat(chunks));
    } catch {
      return failure(HTTP_ERRORS.notUtf8);
    }
  };
  const close = { connection: 'close' };
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Reply>((resolve) => {
    timer = setTimeout(() => resolve(failure(bodyTooSlow(deadlineMs), close)), deadlineMs);
  });
  // A client that goes away mid-body: nobody is left to read the answer, but the reading must end quietly.
  const reading = read().catch(() => failure(HTTP_ERRORS.bodyIncomplete, close));
  try {
    return await Promise.race([reading, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Returns the parsed JSON body and its text (`{ json, text }`), or the reply that refuses it: 415 without `Content-Type:
 * application/json` (spec §4; a charset parameter is fine), 413, 400 for a late, broken or non-JSON body.
 */
export async function readJsonBody(
  event: H3Event,
  limit: number,
  deadlineMs: number,
): Promise<{ json: unknown; text: string } | Reply> {
  const type = (event.req.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') return failure(HTTP_ERRORS.unsupportedMediaType);
  const text = await readBodyText(event, limit, deadlineMs);
  if (typeof text !== 'string') return text;
  try {
    return { json: JSON.parse(text), text };
  } catch {
    return failure(HTTP_ERRORS.invalidJson);
  }
}

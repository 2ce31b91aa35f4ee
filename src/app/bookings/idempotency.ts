/**
 * The API's writes that are safe to retry (POST /bookings, /bookings/any, /series; the booking page's forms): the
 * answer to each `Idempotency-Key` is kept 24 hours, and a repeat with the same body gets that answer again instead
 * of a second booking (no second mail, no second webhook event).
 */
import { createHash } from 'node:crypto';
import { AppError } from '../../errors.ts';
import { type KeptAnswer, keepAnswer, keptAnswer } from '../../store/idempotency.ts';
import { type AppContext, unixSeconds } from '../context.ts';

/** How long an answer is kept: a repeat after this is a new request. */
export const KEY_LIFETIME_SECONDS = 24 * 3600;

/** What a key may be: 1 to 255 visible ASCII characters. */
export const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/** The text of the 400 for a key sent again with another body. */
export const KEY_REUSED = 'Idempotency-Key reused with a different request';

/** Returns the fingerprint of a request body: SHA-256 of its bytes as sent. */
export function fingerprintOf(body: string): string {
  return createHash('sha256').update(body).digest('hex');
}

/** What a request with a key gets: the answer to send, and whether it is one kept from before. */
export type KeyedAnswer = { status: number; body: string; replayed: boolean };

function replay(kept: KeptAnswer, fingerprint: string): KeyedAnswer {
  if (kept.fingerprint !== fingerprint) throw new AppError('invalid', KEY_REUSED);
  return { status: kept.status, body: kept.body, replayed: true };
}

/** Returns the kept answer to `key` for this body (replayed), undefined when there is none; `invalid` for another body. */
export function keptFor(ctx: AppContext, key: string, fingerprint: string): KeyedAnswer | undefined {
  const kept = keptAnswer(ctx.store, key, unixSeconds(ctx.now()) - KEY_LIFETIME_SECONDS);
  return kept && replay(kept, fingerprint);
}

/**
 * Does `act` once for `key` (any write of the API that is safe to retry: a booking, a series): under the write lock,
 * the kept answer if there is one, else `act`'s 201 body, kept in the same transaction as what `act` wrote.
 */
export function actOnce(ctx: AppContext, key: string, fingerprint: string, act: () => string): KeyedAnswer {
  const now = unixSeconds(ctx.now());
  return ctx.store.tx(() => {
    const kept = keptAnswer(ctx.store, key, now - KEY_LIFETIME_SECONDS);
    if (kept) return replay(kept, fingerprint);
    const body = act();
    keepAnswer(ctx.store, key, { fingerprint, status: 201, body }, now, now - KEY_LIFETIME_SECONDS);
    return { status: 201, body, replayed: false };
  });
}

/**
 * Keeps the 400 or 404 the booking's checks gave for `key` (nothing was booked), unless an answer is kept already;
 * returns the answer to send: this one, or the one kept first by a request that raced this one.
 */
export function keepRefusal(
  ctx: AppContext,
  key: string,
  fingerprint: string,
  status: 400 | 404,
  body: string,
): KeyedAnswer {
  const now = unixSeconds(ctx.now());
  return ctx.store.tx(() => {
    if (keepAnswer(ctx.store, key, { fingerprint, status, body }, now, now - KEY_LIFETIME_SECONDS))
      return { status, body, replayed: false };
    return replay(keptAnswer(ctx.store, key, now - KEY_LIFETIME_SECONDS)!, fingerprint);
  });
}

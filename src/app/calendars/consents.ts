/**
 * Google's OAuth web flow, as planner runs it without a browser of its own: `calendar connect … google --oauth`
 * starts a flow (a random `state`, stored hashed) and prints Google's consent address; the practitioner allows it in
 * their browser; Google sends the browser back to planner's public address (`/oauth/google`, served by `planner
 * serve`), which keeps the code for the flow's state; the command, waiting, takes it and exchanges it itself. So the
 * server holds no client secret, and a code is good only for the flow that asked for it, within CONSENT_SECONDS.
 */
import { createHash, randomBytes } from 'node:crypto';
import { answerConsent, dropConsent, insertConsent, takeConsent } from '../../store/calendar-consents.ts';
import { type AppContext, unixSeconds } from '../context.ts';

/** How long a flow waits for the practitioner's answer. */
export const CONSENT_SECONDS = 15 * 60;

/** The path under planner's public address Google sends the browser back to. */
export const CONSENT_PATH = '/oauth/google';

const hashOf = (state: string) => createHash('sha256').update(state).digest('hex');

/** Starts a flow: returns its `state`, to give Google (a secret: the code that comes back with it is the account's). */
export function startConsent(ctx: AppContext): string {
  const state = randomBytes(32).toString('base64url');
  const now = unixSeconds(ctx.now());
  ctx.store.tx(() => insertConsent(ctx.store, hashOf(state), now, now - CONSENT_SECONDS));
  return state;
}

/** Keeps Google's answer for the flow of `state`; false when no such flow waits (unknown, answered, or too old). */
export function receiveConsent(ctx: AppContext, state: string, answer: { code: string } | { error: string }): boolean {
  if (state.length === 0 || state.length > 200) return false;
  const startedAfter = unixSeconds(ctx.now()) - CONSENT_SECONDS;
  return ctx.store.tx(() => answerConsent(ctx.store, hashOf(state), startedAfter, answer));
}

/**
 * Waits for the answer to the flow of `state`, looking every `pollMs`, until CONSENT_SECONDS have passed; returns the
 * code, or throws an Error with one line (the practitioner said no, or did not answer in time).
 */
export async function awaitConsent(ctx: AppContext, state: string, pollMs = 1000): Promise<string> {
  const until = Date.now() + CONSENT_SECONDS * 1000;
  const hash = hashOf(state);
  while (Date.now() < until) {
    const answer = ctx.store.tx(() => takeConsent(ctx.store, hash));
    if (answer?.code) return answer.code;
    if (answer)
      throw new Error(
        `Google did not give planner access (${answer.error}): nothing was changed; run the command again and choose Allow`,
      );
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  ctx.store.tx(() => dropConsent(ctx.store, hash));
  throw new Error(
    `no answer from Google within ${CONSENT_SECONDS / 60} minutes: nothing was changed; run the command again (is planner serve running at the address the consent went back to?)`,
  );
}

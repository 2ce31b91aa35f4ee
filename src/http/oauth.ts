/**
 * GET /oauth/google: where Google sends the practitioner's browser back after the consent of a Google calendar's OAuth
 * web flow (app/calendars/consents.ts). It keeps the code (or Google's error) for the flow whose `state` came with it,
 * and says to go back to the terminal; a state no flow waits for gets the page of a link that is not valid, and counts
 * toward the door's throttle of unknown links (door-guard.ts). The code is in the query, which the access log never
 * writes.
 */
import type { H3Event } from 'h3';
import { receiveConsent } from '../app/calendars/consents.ts';
import { messagePage, notFoundPage, tooManyPage } from '../portal/kit.ts';
import { PAGE_WORDS } from '../portal/words.ts';
import { createDoorGuard } from './door-guard.ts';
import type { DoorOptions } from './door-options.ts';
import { type RatePolicy, tooManyRequests } from './errors.ts';
import { PAGE_HEADERS, pageAnswer } from './page-answer.ts';

export function createOAuthDoor(options: Pick<DoorOptions, 'ctx' | 'nowMs' | 'clientAddress'>) {
  const { ctx } = options;
  const guard = createDoorGuard('unknown-link', options.nowMs);
  const practice = () => {
    const settings = ctx.settings();
    return {
      locale: settings.locale,
      practiceName: settings.practiceName,
      address: settings.address,
      phone: settings.phone,
      website: settings.website,
    };
  };
  const tooMany = (throttled: RatePolicy): Response => {
    const page = tooManyPage(practice(), throttled.resetSeconds);
    return tooManyRequests(throttled, { content: page.html, headers: { ...PAGE_HEADERS, 'x-planner-page': 'page' } });
  };
  const unknown = (event: H3Event): Response => {
    const throttled = guard.unknown(options.clientAddress(event));
    return throttled ? tooMany(throttled) : pageAnswer(notFoundPage(practice()));
  };
  return {
    google(event: H3Event): Response {
      // A throttled address is answered before anything is looked up or written.
      const refused = guard.refusal(options.clientAddress(event));
      if (refused) return tooMany(refused);
      const query = event.url.searchParams;
      const state = query.get('state') ?? '';
      const code = query.get('code');
      const error = query.get('error');
      const answer = code ? { code } : { error: (error ?? 'no code').slice(0, 100) };
      if (!receiveConsent(ctx, state, answer)) return unknown(event);
      const words = PAGE_WORDS[practice().locale];
      return pageAnswer(
        code
          ? messagePage(practice(), 200, words.connectedTitle, words.connected)
          : messagePage(practice(), 200, words.notConnectedTitle, words.notConnected),
      );
    },
    unknownPath: unknown,
  };
}

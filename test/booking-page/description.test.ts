/**
 * The reason's description ("Please bring your referral and a towel") on the booking page (issue 41, item 3): under
 * each reason where it is chosen, and in the appointment's card on the days step and on the review, under the
 * mails' label; escaped; nothing for a reason without one.
 */
import { describe, expect, it } from 'vitest';
import { cliOk } from '../helpers.ts';
import { get, hiddenFields, MARIA, pageSetup, post, times, wholeDay } from './flow.ts';

const TOWEL = 'Please bring your referral & a towel <b>.';

describe('the reason’s description on the booking page', () => {
  it.each([
    ['en', 'Please note'],
    ['de', 'Bitte beachten'],
  ] as const)('%s: where the reason is chosen, on the days step and on the review', async (locale, label) => {
    const s = await pageSetup({
      locale,
      more: async (db) => {
        await cliOk(db, 'reason', 'set', '1', '--description', TOWEL);
        await cliOk(db, 'reason', 'add', '1', 'First consultation', '--duration', '45');
      },
    });
    // Chosen: the description under its reason's button, which a screen reader reads with it; none for the other.
    const choose = await get(`${s.base}/book/`);
    expect(choose.status).toBe(200);
    expect(choose.html).toContain('aria-describedby="about-1-1"');
    expect(choose.html).toContain(
      '<p class="hint" id="about-1-1">Please bring your referral &#38; a towel &#60;b&#62;.</p>',
    );
    expect(choose.html).not.toContain('about-1-2');
    expect(choose.html).not.toContain('<b>');
    // The days step and the review: in the card, under the mails' label.
    const card = `<dt>${label}</dt><dd>Please bring your referral &#38; a towel &#60;b&#62;.</dd>`;
    const days = await get(`${s.base}/book/days?schedule=1&reason=1`);
    expect(days.html).toContain(card);
    const timesPage = await get(`${s.base}${wholeDay(days.html)}`);
    const time = times(timesPage.html)[0]!;
    const details = await get(
      `${s.base}/book/details?${new URLSearchParams({ ...hiddenFields(timesPage.html, '/book/details'), time })}`,
    );
    const review = await post(`${s.base}/book/review`, {
      ...hiddenFields(details.html, '/book/review'),
      ...MARIA,
      homepage: '',
    });
    expect(review.status, review.html).toBe(200);
    expect(review.html).toContain(card);
    // A reason without one: no label at all.
    const other = await get(`${s.base}/book/days?schedule=1&reason=2`);
    expect(other.status).toBe(200);
    expect(other.html).not.toContain(`<dt>${label}</dt>`);
    await s.server.stop();
  });
});

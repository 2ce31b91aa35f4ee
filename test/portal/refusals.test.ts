/**
 * Issue 23, findings 1 and 4, on a real server: a cancel reason with control characters is refused (400, the form
 * again, nothing written), and a booking whose reason or schedule was removed with --force offers no move, refuses
 * one clearly, and can still be cancelled.
 */
import { describe, expect, it } from 'vitest';
import { cli, cliJson, cliOk } from '../helpers.ts';
import {
  bookingState,
  bookWithLink,
  formFields,
  moveForm,
  offeredSlots,
  page,
  postForm,
  setup,
  slotsOf,
  textOf,
} from './page.ts';

describe('the page refuses what it cannot take, and loses nothing (real server)', () => {
  it('a cancel reason with control characters: 400, the cancel form again with a clear text, nothing written; the CLI alike', async () => {
    const s = await setup();
    const { booked, link } = await bookWithLink(s, (await slotsOf(s, s.days[1]!))[0]!);
    const form = formFields((await page(`${link}/cancel`)).html, '/cancel')!;
    const before = bookingState(s.db);
    for (const reason of [
      '\u001b[2J\u001b[31m FAKE: booking moved to 2099',
      'ring\u0007',
      'nul\u0000',
      'back\u0008\u0008',
      '\u0000manage-link\u0000',
      'csi\u009b2J',
    ]) {
      const refused = await postForm(`${link}/cancel`, { ...form, reason });
      expect([JSON.stringify(reason), refused.status]).toEqual([JSON.stringify(reason), 400]);
      expect(textOf(refused.html)).toContain(
        'The reason could not be taken: please write at most 500 characters of plain text',
      );
      expect(formFields(refused.html, '/cancel')).toBeDefined(); // the form again, to correct it
    }
    const cancelled = await cli(s.db, 'bookings', 'cancel', booked.booking_details_id, '--reason', 'x\u001b[2Jy');
    expect(cancelled.code).toBe(1);
    expect(cancelled.stderr).toBe(
      'planner: --reason must be one line of at most 500 characters, without control characters or text-direction controls\n',
    );
    expect(bookingState(s.db)).toEqual(before);
    // A plain reason still goes through.
    expect((await postForm(`${link}/cancel`, { ...form, reason: 'Ill today' })).status).toBe(303);
    expect(await cliJson(s.db, 'bookings', 'show', booked.booking_details_id)).toMatchObject({
      status: 'cancelled',
      cancelReason: 'Ill today',
    });
  });

  it.each([
    ['reason remove 1 --force', ['reason', 'remove', '1', '--force']],
    ['schedule remove 1 --force', ['schedule', 'remove', '1', '--force']],
  ])(
    'after %s: no move button, a move refused clearly (never a 500), and cancelling still works',
    async (_name, removal) => {
      const s = await setup();
      const { booked, link } = await bookWithLink(s, (await slotsOf(s, s.days[1]!))[0]!);
      const times = await page(`${link}/reschedule?day=${s.days[2]}`);
      const form = await moveForm(link, offeredSlots(times.html)[0]!);
      await cliOk(s.db, ...removal);

      const overview = await page(link);
      expect(overview.status).toBe(200);
      expect(overview.html).not.toContain('/reschedule"');
      expect(overview.html).toContain('/cancel"');
      for (const path of ['/reschedule', `/reschedule?day=${s.days[2]}`]) {
        const refused = await page(`${link}${path}`);
        expect(refused.status).toBe(200);
        expect(textOf(refused.html)).toContain('This appointment can no longer be moved here. You can still cancel it');
      }
      const before = bookingState(s.db);
      const posted = await postForm(`${link}/reschedule`, form);
      expect(posted.status).toBe(409);
      expect(textOf(posted.html)).toContain('This appointment can no longer be moved here');
      expect(bookingState(s.db)).toEqual(before);
      expect(s.server.output()).not.toMatch(/failed|does not exist/);

      const cancelForm = formFields((await page(`${link}/cancel`)).html, '/cancel')!;
      expect((await postForm(`${link}/cancel`, cancelForm)).status).toBe(303);
      expect(await cliJson(s.db, 'bookings', 'show', booked.booking_details_id)).toMatchObject({ status: 'cancelled' });
    },
  );
});

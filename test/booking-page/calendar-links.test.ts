/**
 * What the confirmation's "add to calendar" links and calendar file say (issue 41, item 8: they carried only the
 * reference): the reason, the practitioner, where (the practice and its address), what to bring, the reference and
 * the self-service link, the same in Google's link, Outlook's link and the `.ics`; the mail's `.ics` says the same
 * without the link (it is in the mail). UID and METHOD as before; the link in the file is signed with the reference.
 */
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { cliOk } from '../helpers.ts';
import { get, links, pageSetup, post, toReview } from './flow.ts';

function eventOf(ics: string) {
  const calendar = new ICAL.Component(ICAL.parse(ics));
  return {
    method: calendar.getFirstPropertyValue('method'),
    event: new ICAL.Event(calendar.getFirstSubcomponent('vevent')!),
  };
}

describe('the confirmation’s calendar links and file', () => {
  it('carry the reason, the practitioner, the address, what to bring, the reference and the self-service link', async () => {
    const s = await pageSetup({
      more: (db) =>
        cliOk(db, 'reason', 'set', '1', '--description', 'Please bring your referral and a towel.').then(() => {}),
    });
    const { review } = await toReview(s);
    const done = await post(`${s.base}/book/confirm`, review);
    expect(done.status, done.html).toBe(200);
    const reference = /<dt>Reference<\/dt><dd>([A-Z0-9]{16})<\/dd>/.exec(done.html)![1]!;
    const manage = links(done.html, `${s.base}/manage/`)[0]!;
    const details = [
      'What: Check-up',
      'With: Dr. Weber',
      'Where: Test Practice, Hauptstraße 1, 10115 Berlin',
      'Phone: +49 30 1234567',
      'Please note: Please bring your referral and a towel.',
      `Reference: ${reference}`,
      `Manage your appointment: ${manage}`,
    ].join('\n');
    const google = new URL(links(done.html, 'https://calendar.google.com/')[0]!).searchParams;
    expect(google.get('details')).toBe(details);
    expect(google.get('location')).toBe('Test Practice, Hauptstraße 1, 10115 Berlin');
    expect(google.get('text')).toBe('Check-up · Test Practice');
    const outlook = new URL(links(done.html, 'https://outlook.live.com/')[0]!).searchParams;
    expect(outlook.get('body')).toBe(details);
    expect(outlook.get('location')).toBe('Test Practice, Hauptstraße 1, 10115 Berlin');

    // The calendar file: the same description, the link its confirmation made; UID and METHOD as they were.
    const fileLink = links(done.html, '/book/event/')[0]!;
    const file = await get(`${s.base}${fileLink}`);
    expect(file.status).toBe(200);
    expect(file.html).toContain(`UID:${reference}`);
    const { method, event } = eventOf(file.html);
    expect(method).toBe('REQUEST');
    expect(event.description).toBe(details);
    expect(event.location).toBe('Test Practice, Hauptstraße 1, 10115 Berlin');
    expect(event.summary).toBe('Check-up – Test Practice');
    // The link is signed with the reference: another link in the same address is refused.
    const token = new URL(manage).pathname.split('/').at(-1)!;
    expect((await get(`${s.base}${fileLink.replace(token, 'A'.repeat(43))}`)).status).toBe(404);
    expect((await get(`${s.base}${fileLink.replace(`m=${token}&`, '')}`)).status).toBe(404);

    // The mail's file says the same, without the link (the mail has its own, made when it is sent).
    const mails = await s.smtp.received(2);
    const mail = mails.find((one) => (one.to as any).text === 'maria@example.com')!;
    const attached = mail.attachments.find((one) => one.filename === 'appointment.ics')!;
    const mailed = eventOf(attached.content.toString());
    expect(mailed.event.description).toBe(details.slice(0, details.lastIndexOf('\n')));
    expect(mailed.event.uid).toBe(event.uid);

    // Cancelled: the file removes the event (METHOD:CANCEL) and no longer offers the link.
    await cliOk(s.db, 'bookings', 'cancel', reference);
    const cancelled = eventOf((await get(`${s.base}${fileLink}`)).html);
    expect(cancelled.method).toBe('CANCEL');
    expect(cancelled.event.description).not.toContain('/manage/');
    await s.server.stop();
  });
});

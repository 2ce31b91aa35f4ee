/**
 * Customers' calendars (iMIP, RFC 6047): each confirmation, update and cancellation carries the invitation
 * inline, a `text/calendar` part inside `multipart/alternative` whose MIME `method` is the METHOD inside (REQUEST for a
 * new or moved appointment, CANCEL for a cancelled one: Outlook reads only that part), and keeps the `.ics`
 * attachment; its ORGANIZER is the address the mail comes from. Real server, real SMTP; each part read by ical.js.
 */
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { api, bookableDb, cliOk, serve, tempDb } from '../helpers.ts';
import { mimeParts, startSmtp } from './smtp.ts';

describe('invitations in customers’ calendars (iMIP, issue 38)', () => {
  it('confirmation, update and cancellation: an inline text/calendar alternative whose method is its METHOD, the .ics kept, ORGANIZER the From', async () => {
    const smtp = await startSmtp();
    const db = tempDb();
    const token = await bookableDb(db);
    await cliOk(
      db,
      'mail',
      'set',
      `smtp://planner:s3cret@127.0.0.1:${smtp.port}`,
      '--from',
      'Praxis Sonne <termine@sonne.example>',
      '--send-password-in-clear',
    );
    const server = await serve(db, { PLANNER_MAIL_RETRY_SECONDS: '0.2' });
    const days = (await api(server.url, '/api/days?schedule=1&reason=1', token)).body.data as string[];
    const answer = await api(server.url, '/api/bookings', token, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        schedule: 1,
        reason: 1,
        slot: `${days[2]} 10:00:00`,
        submission: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
      }),
    });
    const reference = answer.body.booking_details_id as string;
    await smtp.received(2);
    await cliOk(db, 'bookings', 'move', reference, `${days[2]} 11:00`);
    await smtp.received(3);
    await cliOk(db, 'bookings', 'cancel', reference);
    await smtp.received(4);
    const customer = smtp.messages.flatMap((mail, index) =>
      (mail.to as { text: string }).text === 'ada@example.com' ? [index] : [],
    );
    expect(customer).toHaveLength(3);
    const seen = customer.map((index) => {
      const all = mimeParts(smtp.raw[index]!);
      const alternative = all.findIndex((part) => part.type.startsWith('multipart/alternative'));
      const inline = all.slice(0, alternative).filter((part) => part.type.startsWith('text/calendar'));
      expect(inline, 'one text/calendar part inside multipart/alternative').toHaveLength(1);
      const mime = /method=([A-Z]+)/.exec(inline[0]!.type)![1];
      const calendar = new ICAL.Component(ICAL.parse(inline[0]!.body) as unknown as unknown[]);
      const event = calendar.getFirstSubcomponent('vevent')!;
      const attached = smtp.messages[index]!.attachments.find((file) => file.filename === 'appointment.ics')!;
      return {
        mime,
        method: calendar.getFirstPropertyValue('method'),
        uid: event.getFirstPropertyValue('uid'),
        sequence: event.getFirstPropertyValue('sequence'),
        organizer: String(event.getFirstPropertyValue('organizer')).toLowerCase(),
        attachedMethod: (attached.headers.get('content-type') as unknown as { params: { method: string } }).params
          .method,
        sameFile: attached.content.toString().trim() === inline[0]!.body.trim(),
      };
    });
    const expected = (method: string, sequence: number) => ({
      mime: method,
      method,
      uid: `${reference}@planner`,
      sequence,
      organizer: 'mailto:termine@sonne.example',
      attachedMethod: method,
      sameFile: true,
    });
    expect(seen).toEqual([expected('REQUEST', 0), expected('REQUEST', 1), expected('CANCEL', 2)]);
    await server.stop();
  }, 60_000);
});

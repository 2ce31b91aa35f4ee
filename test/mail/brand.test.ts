/**
 * Issue 47: the practice's look in its customers' mails, and French typography in every mail. In-process with a
 * fixed clock, through the outbox worker and a real SMTP server: the logo is an inline part with a Content-ID that
 * the HTML shows by `cid:` (never an address to fetch), chosen when the mail is SENT; the colour is the booking
 * page's; the practice's notices stay plain. A French mail has its no-break spaces in the subject, text and HTML.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ParsedMail, simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { createContext } from '../../src/app/context.ts';
import { setMail } from '../../src/app/messages/mail.ts';
import { enableBookingPage } from '../../src/app/pages/booking-page.ts';
import { enablePortal } from '../../src/app/pages/portal.ts';
import { changePractice } from '../../src/app/practice/practice.ts';
import { startOutboxWorker } from '../../src/mail/worker.ts';
import { openStore } from '../../src/store/db.ts';
import { readSettings } from '../../src/store/settings.ts';
import { pngOf } from '../booking-page/flow.ts';
import { tempDir } from '../helpers.ts';
import { ADA, apiFixture, NOW } from '../http/fixture.ts';
import { startSmtp } from './smtp.ts';

/** A fixture with mail and the self-service page on, a worker on the fixture's clock, and a way to book. */
async function setUp() {
  const smtp = await startSmtp();
  const f = await apiFixture();
  setMail(f.ctx, smtp.url, 'desk@test.example');
  enablePortal(f.ctx, { url: 'https://book.example', cancelUntilHours: 12 });
  const worker = startOutboxWorker({
    store: f.store,
    settings: () => readSettings(f.store),
    log: () => {},
    nowMs: () => NOW.getTime(),
    pollMs: 60_000,
  });
  const book = async (slot: string) => {
    const booked = await f.post({ schedule: 1, reason: 1, slot, submission: ADA });
    expect(booked.status).toBe(201);
  };
  return { smtp, f, worker, book };
}

/** A logo file of `width` × `height` pixels in one colour, and its bytes. */
function logoFile(width: number, height: number, rgb: [number, number, number]): { file: string; bytes: Buffer } {
  const bytes = pngOf(width, height, rgb);
  const file = join(tempDir(), 'logo.png');
  writeFileSync(file, bytes);
  return { file, bytes };
}

/** The message as received, parsed again with its `cid:` links kept (mailparser turns them into data URLs). */
function withCidLinks(raw: string): Promise<ParsedMail> {
  return simpleParser(raw, { keepCidLinks: true });
}

describe('the practice’s look in the mails (issue 47)', () => {
  it('a customer mail carries the logo as an inline part the HTML shows by cid:, and the colour, as they are when it is sent; the notice stays plain', async () => {
    const { smtp, f, worker, book } = await setUp();
    const before = logoFile(300, 100, [200, 30, 30]);
    enableBookingPage(f.ctx, { colour: '#8b1e1e', logo: before.file });
    await book('2026-06-02 09:00:00'); // the mails are written now, with the first look
    // The practice changes its look before the worker sends them: the mails go out with the new one.
    const after = logoFile(120, 40, [10, 110, 79]);
    enableBookingPage(f.ctx, { colour: '#0a6e4f', logo: after.file });
    await worker.flush();
    await smtp.received(2);
    await worker.stop();

    const at = smtp.messages.findIndex((mail) => mail.to && JSON.stringify(mail.to).includes('ada@example.com'));
    const confirmation = await withCidLinks(smtp.raw[at]!);
    const version = createHash('sha256').update(after.bytes).digest('hex').slice(0, 16);
    const cid = `logo-${version}@test.example`;
    const images = confirmation.attachments.filter((part) => part.contentType === 'image/png');
    expect(images).toHaveLength(1);
    expect(images[0]).toMatchObject({ contentDisposition: 'inline', contentId: `<${cid}>`, filename: 'logo.png' });
    expect(Buffer.from(images[0]!.content)).toEqual(after.bytes);
    const html = confirmation.html as string;
    // The logo at 72 px high at most (120 × 40 declared: its own size), the band and the button in the new colour.
    expect(html).toContain(`<img src="cid:${cid}" alt="" width="120" height="40"`);
    expect(html).toContain('background:#0a6e4f;border-radius:8px 8px 0 0');
    expect(html).toMatch(/<td style="background:#0a6e4f;border-radius:6px"><a href="https:\/\/book\.example\/manage\//);
    expect(html).not.toContain('#8b1e1e');
    // No image the mail app would fetch: every image is a part of the message.
    expect([...html.matchAll(/<img [^>]*src="([^"]*)"/g)].map((match) => match[1])).toEqual([`cid:${cid}`]);
    expect(html).not.toContain('\u0000');
    expect(confirmation.text).not.toContain('\u0000');

    const notice = await withCidLinks(smtp.raw[1 - at]!);
    expect(notice.to && JSON.stringify(notice.to)).toContain('desk@test.example');
    expect(notice.attachments.filter((part) => part.contentType.startsWith('image/'))).toEqual([]);
    expect(notice.html).not.toContain('#0a6e4f');
    expect(notice.html).not.toContain('<img');
  });

  it('without the booking page’s look: planner’s own button, no band, no image', async () => {
    const { smtp, worker, book } = await setUp();
    await book('2026-06-02 09:00:00');
    await worker.flush();
    await smtp.received(2);
    await worker.stop();
    const confirmation = smtp.messages.find((mail) => JSON.stringify(mail.to).includes('ada@example.com'))!;
    expect(confirmation.attachments.filter((part) => part.contentType.startsWith('image/'))).toEqual([]);
    expect(confirmation.html).not.toContain('<img');
    expect(confirmation.html).not.toContain('border-radius:8px 8px 0 0');
    expect(confirmation.html).toContain('<td style="background:#1d4ed8;border-radius:6px">');
  });

  it('French: a no-break space before : ; ! ? in the subject, the text and the HTML; links, times and tags untouched', async () => {
    const { smtp, f, worker, book } = await setUp();
    // As the CLI would, from another connection: the server sees it at its next request.
    const admin = openStore(f.file);
    changePractice(createContext(admin), { locale: 'fr' });
    admin.close();
    await book('2026-06-02 09:00:00');
    await worker.flush();
    await smtp.received(2);
    await worker.stop();
    const confirmation = smtp.messages.find((mail) => JSON.stringify(mail.to).includes('ada@example.com'))!;
    const notice = smtp.messages.find((mail) => JSON.stringify(mail.to).includes('desk@test.example'))!;
    // The tables write "chez Test : mardi…" with a plain space; the mail sends a no-break one (U+00A0 before a colon).
    expect(confirmation.subject).toBe('Votre rendez-vous chez Test\u00a0: mardi 2 juin 2026, 09:00 UTC+2');
    expect(notice.subject).toMatch(/^Nouvelle réservation\u00a0: /);
    const text = confirmation.text!;
    expect(text).toContain('Référence\u00a0:');
    expect(text).not.toMatch(/ [:;!?](\s|$)/m); // no mark after a plain space, none that may start a line
    expect(text).toMatch(/Gérer votre rendez-vous\u00a0: https:\/\/book\.example\/manage\/[A-Za-z0-9_-]{43}\n/);
    const html = confirmation.html as string;
    expect(html).toContain('<html lang="fr">');
    expect(html).toContain('mardi 2 juin 2026, 09:00\u00a0UTC+2'); // the zone on the time's line
    expect(html).toMatch(/<a href="https:\/\/book\.example\/manage\/[A-Za-z0-9_-]{43}" style="display:inline-block;/);
    expect(html).not.toMatch(/style="[^"]*[\u00a0\u202f]/); // no style attribute touched
  });
});

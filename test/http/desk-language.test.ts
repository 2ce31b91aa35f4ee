/**
 * The front desk books a caller in their own language (issue 47): where the practice offers several, the desk's form
 * asks for the customer's language (the practice's own first), the review names it, and the booking keeps it, so the
 * customer's confirmation speaks it. Real server, real CLI.
 */
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { berlinDay, bookableDb, cliJson, cliOk, serve, tempDb } from '../helpers.ts';
import { deskSession, formToken, fromHtml, postForm } from './desk-client.ts';

describe('the desk books a caller in their language', { timeout: 120_000 }, () => {
  it('asks for it where several are offered, names it on the review, and keeps it with the booking', async () => {
    const db = tempDb();
    await bookableDb(db);
    await cliOk(db, 'practice', 'set', '--languages', 'en,fr');
    const server = await serve(db);
    await cliOk(db, 'desk', 'enable', '--url', server.url);
    const cookie = await deskSession(db, server.url, 'rita@praxis.example', 'reception');
    const csrf = await formToken(server.url, cookie);
    const slot = `${berlinDay(2)} 09:00:00`;
    const form = fromHtml(
      await (
        await fetch(`${server.url}/desk/book?schedule=1&reason=1&slot=${encodeURIComponent(slot)}`, {
          headers: { cookie },
        })
      ).text(),
    );
    expect(form).toContain(
      '<select id="f-language" name="language"><option value="en" lang="en" selected>English</option><option value="fr" lang="fr">Français</option></select>',
    );
    const typed = { 'f.first_name': 'Camille', 'f.last_name': 'Martin', 'f.email': 'camille@example.com' };
    const base = { csrf, schedule: '1', reason: '1', slot, confirm: 'on', weeks: '1', ...typed, language: 'fr' };
    const review = fromHtml(
      await (await postForm(`${server.url}/desk/book`, { ...base, step: 'review' }, cookie)).text(),
    );
    expect(review).toContain("<dt>The customer's language (their e-mails and page)</dt><dd>Français</dd>");
    expect(review).toContain('<input type="hidden" name="language" value="fr">');
    const done = await postForm(`${server.url}/desk/book`, { ...base, step: 'confirm' }, cookie);
    expect(done.status).toBe(303);
    // The practice's own language picked: kept as none, so the customer follows the practice's, as every other.
    const own = { ...base, slot: `${berlinDay(2)} 10:00:00`, 'f.email': 'jo@example.com', language: 'en' };
    expect((await postForm(`${server.url}/desk/book`, { ...own, step: 'confirm' }, cookie)).status).toBe(303);
    const handle = new DatabaseSync(db, { readOnly: true });
    const rows = handle.prepare('SELECT locale FROM bookings ORDER BY id').all() as { locale: string | null }[];
    handle.close();
    expect(rows.map((row) => row.locale)).toEqual(['fr', null]);
    expect(JSON.stringify(await cliJson(db, 'mail', 'queue'))).toContain('Votre rendez-vous');
    await server.stop();
  });
});

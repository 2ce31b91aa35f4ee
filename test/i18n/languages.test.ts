/**
 * Customers in their own language (issue 47): a German practice that also offers French. A real server, the real
 * CLI and a real SMTP server: the booking page chooses by Accept-Language or `?lang=` (carried from step to step),
 * the labels, reasons and descriptions come in the customer's language where the practice gave them, and every text
 * a French customer sees in German is one `planner doctor` names; the booking keeps its customer's language, so
 * their mails, calendar file and self-service page speak it while the practice's notice stays German; the API
 * takes Accept-Language on POST /bookings.
 */
import { execFile } from 'node:child_process';
import { DatabaseSync } from 'node:sqlite';
import { promisify } from 'node:util';
import type { ParsedMail } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { get, hiddenFields, links, type PageSetup, pageSetup, post, unescapeHtml } from '../booking-page/flow.ts';
import { commandsOf, newcomerEnv, readmeBlock } from '../docs/readme.ts';
import { api, berlinDay, bookableDb, cli, cliJson, cliOk, fieldArgs, ROOT, tempDb } from '../helpers.ts';

const run = promisify(execFile);

/** The practice's own texts that customers see: the labels, a select's choices, the reason's name and description. */
const OWN = [
  'Vorname',
  'Nachname',
  'E-Mail',
  'Telefon',
  'Versicherungsnummer',
  'Versicherungsart',
  'Gesetzlich',
  'Privat',
  'Physiotherapie',
  'Handtuch mitbringen',
];

/** A German practice offering French too, with a field and a reason of its own words. */
function practice(reminders = 'off'): Promise<PageSetup> {
  return pageSetup({
    locale: 'de',
    more: async (db) => {
      await cliOk(db, 'reminders', 'set', reminders);
      await cliOk(db, 'practice', 'set', '--languages', 'de,fr');
      await cliOk(db, 'field', 'add', 'insurance', '--label', 'Versicherungsnummer');
      await cliOk(
        db,
        'field',
        'add',
        'kind',
        '--label',
        'Versicherungsart',
        '--form',
        'select',
        '--options',
        'Gesetzlich,Privat',
      );
      await cliOk(db, 'reason', 'set', '1', '--name', 'Physiotherapie', '--description', 'Handtuch mitbringen');
    },
  });
}

/** The `languages` check of `planner doctor --json`. */
async function languageCheck(db: string): Promise<{ status: string; detail: string }> {
  const result = await cli(db, 'doctor', '--json');
  const checks = JSON.parse(result.stdout) as { name: string; status: string; detail: string }[];
  return checks.find((check) => check.name === 'languages')!;
}

/** The customer's steps of the booking page up to the form, as the browser sends `headers`: each page's HTML. */
async function walk(s: PageSetup, start: string, headers: Record<string, string> = {}): Promise<string[]> {
  const first = await get(`${s.base}${start}`, { headers });
  expect(first.status).toBe(200);
  const day = links(first.html, '/book/times?')[1]!;
  const times = await get(`${s.base}${day}`, { headers });
  const lang = /lang=([a-z]+)/.exec(start)?.[1];
  const choice = hiddenFields(times.html, `/book/details${lang ? `\\?lang=${lang}` : ''}`);
  const time = /name="time" value="(\d\d:\d\d)"/.exec(times.html)![1]!;
  const query = new URLSearchParams({ ...choice, time });
  const details = await get(`${s.base}/book/details?${query}`, { headers });
  expect(details.status).toBe(200);
  return [first.html, times.html, details.html].map(unescapeHtml);
}

/** What a page shows: its text without tags (an option's value is what the form sends, not what it shows). */
const textOf = (html: string) => html.replace(/<[^>]*>/g, ' ');

/** The HTML's `lang`. */
const langOf = (html: string) => /<html lang="([a-z]+)"/.exec(html)?.[1];

/** The text part of the first mail to `to` whose subject matches. */
function mailTo(mails: ParsedMail[], to: string, subject: RegExp): ParsedMail {
  const found = mails.find(
    (mail) => mail.to && JSON.stringify(mail.to).includes(to) && subject.test(mail.subject ?? ''),
  );
  expect(found, `a mail to ${to} with subject ${subject}`).toBeDefined();
  return found!;
}

/** The subjects of the reminders not yet sent. */
function reminderSubjects(db: string): string[] {
  const handle = new DatabaseSync(db, { readOnly: true });
  try {
    const rows = handle
      .prepare("SELECT subject FROM outbox WHERE kind = 'reminder' AND status = 'pending' ORDER BY id")
      .all() as { subject: string }[];
    return rows.map((row) => row.subject);
  } finally {
    handle.close();
  }
}

/** The language each booking's customer is served in, by reference (null: the practice's own). */
function localesOf(db: string): Record<string, string | null> {
  const handle = new DatabaseSync(db, { readOnly: true });
  try {
    const rows = handle.prepare('SELECT reference, locale FROM bookings').all() as {
      reference: string;
      locale: string | null;
    }[];
    return Object.fromEntries(rows.map((row) => [row.reference, row.locale]));
  } finally {
    handle.close();
  }
}

describe('customers in their own language (issue 47)', { timeout: 240_000 }, () => {
  it('a French customer sees the practice in German only where doctor says so, until the practice gives its words', async () => {
    const s = await practice();
    const french = { 'accept-language': 'fr-CH, fr;q=0.9, de;q=0.5' };
    // Before: the own field, reason and description have no French; the default labels have theirs.
    const before = await languageCheck(s.db);
    expect(before.status).toBe('warn');
    for (const text of ['"Versicherungsnummer"', '"Gesetzlich, Privat"', '"Physiotherapie"', '"Handtuch mitbringen"'])
      expect(before.detail).toContain(text);
    expect(before.detail).toContain('planner field set kind --options fr="…,…"');
    expect(before.detail).toContain('planner field set insurance --label fr="…"');
    expect(before.detail).toContain('planner reason set 1 --name fr="…"');
    expect(before.detail).not.toContain('Vorname');
    const pages = await walk(s, '/book/', french);
    for (const html of pages) expect(langOf(html)).toBe('fr');
    const shown = OWN.filter((text) => pages.some((html) => textOf(html).includes(text)));
    // The check is not empty: the own texts without French are on the pages…
    expect(shown).toEqual([
      'Versicherungsnummer',
      'Versicherungsart',
      'Gesetzlich',
      'Privat',
      'Physiotherapie',
      'Handtuch mitbringen',
    ]);
    // …and every text of the practice a French customer sees in German, doctor names.
    for (const text of shown) expect(before.detail).toContain(text);
    expect(pages[2]).toContain('Prénom'); // a default label the practice kept: in French by itself

    await cliOk(s.db, 'field', 'set', 'insurance', '--label', "fr=Numéro d'assurance");
    await cliOk(s.db, 'field', 'set', 'kind', '--label', "fr=Type d'assurance", '--options', 'fr=Publique,Privée');
    const short = await cli(s.db, 'field', 'set', 'kind', '--options', 'fr=Publique');
    expect(short.stderr).toBe(
      "planner: --options fr=… gives 1 choice(s) for the field's 2 (Gesetzlich, Privat): one for each, in that order\n",
    );
    await cliOk(
      s.db,
      'reason',
      'set',
      '1',
      '--name',
      'fr=Kinésithérapie',
      '--description',
      'fr=Apportez une serviette',
    );
    const after = await languageCheck(s.db);
    expect(after).toEqual({
      name: 'languages',
      status: 'ok',
      detail: "customers in de, fr (de: the practice's own): every label, reason and description in each",
    });
    const now = await walk(s, '/book/', french);
    expect(OWN.filter((text) => now.some((html) => textOf(html).includes(text)))).toEqual([]);
    expect(now[0]).toContain('Kinésithérapie');
    expect(now[2]).toContain("Numéro d'assurance");
    // The choices read in French; what is sent is the practice's own value.
    expect(now[2]).toContain('<option value="Gesetzlich">Publique</option><option value="Privat">Privée</option>');
    // A German browser still gets the practice's own words.
    const german = await walk(s, '/book/', { 'accept-language': 'de-DE' });
    expect(langOf(german[2]!)).toBe('de');
    expect(german[2]).toContain('Versicherungsnummer');
    expect(german[0]).toContain('Physiotherapie');
  });

  it('the customer picks a language; every step keeps it, the booking keeps it, and so do its mails and its page', async () => {
    const s = await practice('1h'); // the booking is tomorrow or later: its reminder is ahead
    await cliOk(
      s.db,
      'reason',
      'set',
      '1',
      '--name',
      'fr=Kinésithérapie',
      '--description',
      'fr=Apportez une serviette',
    );
    // A German browser that picks French on the switcher.
    const headers = { 'accept-language': 'de-DE' };
    const home = await get(`${s.base}/book/`, { headers });
    expect(langOf(home.html)).toBe('de');
    const switcher = /<nav aria-label="Sprache"><ul class="languages">(.*?)<\/ul><\/nav>/.exec(home.html)?.[1];
    expect(switcher).toContain('<span lang="de" aria-current="true">Deutsch</span>');
    expect(switcher).toContain('<a href="/book/?lang=fr" lang="fr" hreflang="fr">Français</a>');
    const pages = await walk(s, '/book/?lang=fr', headers);
    for (const html of pages) expect(langOf(html)).toBe('fr');
    // Each link and form of the page carries the choice (links and POSTs by their query, GET forms by a field).
    for (const html of pages)
      for (const [, url] of html.matchAll(/ (?:href|action|formaction)="(\/book\/[^"]*)"/g))
        expect(url, `${url} carries the language`).toMatch(/[?&]lang=/);
    const ticket = hiddenFields(pages[2]!, '/book/review\\?lang=fr');
    const typed = {
      'f.first_name': 'Camille',
      'f.last_name': 'Martin',
      'f.email': 'camille@example.com',
      'f.insurance': 'A123',
    };
    const review = await post(`${s.base}/book/review?lang=fr`, { ...ticket, ...typed, homepage: '' }, headers);
    expect(review.status, review.html).toBe(200);
    expect(langOf(review.html)).toBe('fr');
    const confirm = hiddenFields(review.html, '/book/confirm\\?lang=fr');
    const done = await post(`${s.base}/book/confirm?lang=fr`, confirm, headers);
    expect(done.status, done.html).toBe(200);
    expect(langOf(done.html)).toBe('fr');
    expect(unescapeHtml(done.html)).toContain('Kinésithérapie');
    expect(unescapeHtml(done.html)).not.toContain('Physiotherapie');
    const [reference] = Object.keys(localesOf(s.db));
    expect(localesOf(s.db)).toEqual({ [reference!]: 'fr' });

    await s.smtp.received(2);
    // The customer's confirmation: French, the reason in French, its calendar file too.
    const confirmation = mailTo(s.smtp.messages, 'camille@example.com', /rendez-vous/);
    expect(confirmation.text).toContain('Kinésithérapie');
    expect(confirmation.text).toContain('Apportez une serviette');
    expect(confirmation.text).not.toContain('Physiotherapie');
    const ics = confirmation.attachments.find((one) => one.filename?.endsWith('.ics'))!.content.toString();
    expect(unfolded(ics)).toContain('SUMMARY:Kinésithérapie – Test Practice');
    // The practice's notice: German, the reason in its own words.
    const notice = mailTo(s.smtp.messages, 'desk@', /Neue Buchung: Physiotherapie/);
    expect(notice.text).not.toContain('Kinésithérapie');

    // Its page speaks French; the switcher keeps German for the customer from then on.
    const manage = /(https?:\/\/\S+\/manage\/[A-Za-z0-9_-]{43})/.exec(confirmation.text!)![1]!;
    const page = await get(manage);
    expect(langOf(page.html)).toBe('fr');
    expect(unescapeHtml(page.html)).toContain('Kinésithérapie');
    expect(reminderSubjects(s.db)).toEqual([expect.stringMatching(/^Rappel : votre rendez-vous chez Test Practice/)]);
    const switched = await get(`${manage}?lang=de`);
    expect(switched.status).toBe(303);
    expect(switched.headers.get('location')).toBe(new URL(manage).pathname);
    expect(localesOf(s.db)).toEqual({ [reference!]: 'de' });
    // Its reminder, written with the booking, is written again in German (at its time).
    expect(reminderSubjects(s.db)).toEqual([expect.stringMatching(/^Erinnerung: Ihr Termin bei Test Practice/)]);
    const german = await get(manage);
    expect(langOf(german.html)).toBe('de');
    expect(unescapeHtml(german.html)).toContain('Physiotherapie');
    // A language the practice does not offer changes nothing.
    expect((await get(`${manage}?lang=es`)).status).toBe(200);
    expect(localesOf(s.db)).toEqual({ [reference!]: 'de' });
  });

  it("the API keeps the language the customer's Accept-Language asks for among the offered, else the practice's", async () => {
    const s = await practice();
    const token = (await cliJson(s.db, 'token', 'new')).token as string;
    await cliOk(s.db, 'api', 'enable');
    const days = (await api(s.base, '/api/days?schedule=1&reason=1', token)).body.data as string[];
    const slots = (await api(s.base, `/api/slots?schedule=1&reason=1&day=${days[1]}`, token)).body.data as string[];
    const book = (slot: string, email: string, language?: string) =>
      api(s.base, '/api/bookings', token, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(language ? { 'accept-language': language } : {}) },
        body: JSON.stringify({
          schedule: 1,
          reason: 1,
          slot,
          submission: { first_name: 'Ada', last_name: 'L', email, insurance: 'X1' },
        }),
      });
    const fr = await book(slots[0]!, 'fr@example.com', 'en-GB;q=0.9, fr-BE;q=0.8');
    const en = await book(slots[1]!, 'en@example.com', 'en-GB, es;q=0.5');
    const none = await book(slots[2]!, 'none@example.com');
    expect([fr.status, en.status, none.status]).toEqual([201, 201, 201]);
    // The six calls' bodies are unchanged: the same keys whatever the language.
    expect(Object.keys(fr.body).sort()).toEqual(Object.keys(none.body).sort());
    expect(localesOf(s.db)).toEqual({
      [fr.body.booking_details_id]: 'fr',
      [en.body.booking_details_id]: null, // English is not offered: the practice's own
      [none.body.booking_details_id]: null,
    });
    await s.smtp.received(6);
    expect(mailTo(s.smtp.messages, 'fr@example.com', /^Votre rendez-vous/).subject).toContain('Test Practice');
    expect(mailTo(s.smtp.messages, 'en@example.com', /^Ihr Termin/).subject).toContain('Test Practice');
    expect(s.smtp.messages.filter((mail) => /^Neue Buchung/.test(mail.subject ?? ''))).toHaveLength(3);
    // A booking that keeps no language: its page speaks what the reader's browser asks for among the offered.
    const link = /(https?:\/\/\S+\/manage\/[A-Za-z0-9_-]{43})/.exec(
      mailTo(s.smtp.messages, 'none@example.com', /^Ihr Termin/).text!,
    )![1]!;
    expect(langOf((await get(link, { headers: { 'accept-language': 'fr' } })).html)).toBe('fr');
    expect(langOf((await get(link, { headers: { 'accept-language': 'nl' } })).html)).toBe('de');
    // French no longer offered: its customer is served in the practice's own language from then on.
    await cliOk(s.db, 'practice', 'set', '--languages', 'de');
    await cliOk(s.db, 'bookings', 'cancel', fr.body.booking_details_id);
    const [cancelled] = await s.smtp.received(7).then((mails) => mails.slice(6));
    expect(cancelled!.subject).toMatch(/^Abgesagt: Ihr Termin bei Test Practice/);
  });

  it('practice set --languages refuses what planner does not speak, a language twice, and --locale that disagrees', async () => {
    const s = await practice();
    const refusals: [string[], string][] = [
      [['--languages', 'de,pt'], '--languages: "pt" is not one of en, de, fr, it, es, nl'],
      [['--languages', 'de,fr,de'], '--languages names "de" twice'],
      [['--languages', 'fr,de', '--locale', 'de'], '--locale de and --languages fr,de disagree'],
    ];
    for (const [args, message] of refusals) {
      const result = await cli(s.db, 'practice', 'set', ...args);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(message);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect((await cliJson(s.db, 'practice', 'show')).languages).toEqual(['de', 'fr']);
    // A new own language that was offered: the old one stays offered, after it.
    await cliOk(s.db, 'practice', 'set', '--locale', 'fr');
    expect((await cliJson(s.db, 'practice', 'show')).languages).toEqual(['fr', 'de']);
    const field = await cli(s.db, 'field', 'set', 'insurance', '--label', 'fr=A', '--label', 'fr=B');
    expect(field.stderr).toBe('planner: --label fr=… is given twice: give each language once\n');
    expect(await cliOk(s.db, 'field', 'set', 'insurance', '--label', 'it=Numero')).toContain('it "Numero"');
    expect(await cliOk(s.db, 'field', 'set', 'insurance', '--label', 'it=')).not.toContain('Numero');
  });
});

/** An .ics with its folded lines joined (RFC 5545 §3.1). */
function unfolded(ics: string): string {
  return ics.replace(/\r?\n[ \t]/g, '');
}

describe('README: customers in their own language', () => {
  it('the block runs as written: French offered, the texts given, doctor content', { timeout: 120_000 }, async () => {
    const db = tempDb();
    await bookableDb(db);
    await cliOk(db, 'field', 'add', 'insurance', '--label', 'Versicherungsnummer');
    await cliOk(
      db,
      'field',
      'add',
      'kind',
      '--label',
      'Versicherungsart',
      '--form',
      'select',
      '--options',
      'Gesetzlich,Privat',
    );
    await cliOk(db, 'practice', 'set', '--locale', 'de');
    const lines = commandsOf(readmeBlock('Customers in their own language', 'sh'));
    expect(lines).toHaveLength(5);
    const env = newcomerEnv({ PLANNER_DB: db });
    const outputs: string[] = [];
    for (const line of lines) {
      // doctor exits 1 on this test's other findings (no mail set): its languages line is what the block is for.
      const result = await run('sh', ['-c', line], { cwd: ROOT, env }).catch(
        (error: { code: number; stdout: string; stderr: string }) => {
          if (!line.includes('doctor')) throw new Error(`README line failed: ${line}\n${error.stderr}`);
          return error;
        },
      );
      outputs.push(result.stdout);
    }
    expect(outputs[0]).toContain('customers also in fr');
    expect(outputs[4]).toMatch(
      /languages +customers in de, fr \(de: the practice's own\): every label, reason and description in each/,
    );
  });
});

describe('a new own language (issue 47)', () => {
  it("the texts given in it become the texts; the old ones stay its customers'; its own texts are refused with a language", async () => {
    const db = tempDb();
    await bookableDb(db);
    await cliOk(db, 'practice', 'set', '--languages', 'de,fr');
    await cliOk(db, 'field', 'add', 'insurance', '--label', 'Versicherungsnummer', '--label', "fr=Numéro d'assurance");
    await cliOk(db, 'reason', 'set', '1', '--name', 'Physiotherapie', '--name', 'fr=Kinésithérapie');
    const own = await cli(db, 'field', 'set', 'insurance', '--label', 'de=Nummer');
    expect(own.code).toBe(1);
    expect(own.stderr).toBe('planner: de is the practice\'s own language: give its text without "de=" (Nummer)\n');
    await cliOk(db, 'practice', 'set', '--languages', 'fr,de');
    const insurance = (await cliJson(db, 'field', 'list')).find((field: { key: string }) => field.key === 'insurance');
    expect([insurance.label, insurance.labels.de]).toEqual(["Numéro d'assurance", 'Versicherungsnummer']);
    const reason = (await cliJson(db, 'reason', 'list', '1')).find((one: { id: number }) => one.id === 1);
    expect([reason.name, reason.names.de, reason.names.fr]).toEqual(['Kinésithérapie', 'Physiotherapie', undefined]);
    expect((await languageCheck(db)).detail).not.toContain('Versicherungsnummer');
  });
});

describe('bookings add --language (issue 47)', () => {
  it('keeps an offered language for the customer the admin books; refuses another in one line, writing nothing', async () => {
    const db = tempDb();
    await bookableDb(db);
    await cliOk(db, 'practice', 'set', '--languages', 'de,fr');
    const slot = `${berlinDay(2)} 09:00`;
    const refused = await cli(db, 'bookings', 'add', '1', '1', slot, ...fieldArgs(), '--language', 'es');
    expect([refused.code, refused.stderr]).toEqual([
      1,
      'planner: --language es: the practice serves its customers in de, fr (planner practice set --languages)\n',
    ]);
    expect(localesOf(db)).toEqual({});
    const made = await cliJson(db, 'bookings', 'add', '1', '1', slot, ...fieldArgs(), '--language', 'fr');
    const any = await cliJson(db, 'bookings', 'add', 'any', '1', `${berlinDay(2)} 10:00`, ...fieldArgs());
    expect(localesOf(db)).toEqual({ [made.reference]: 'fr', [any.reference]: null });
    // Its confirmation waits in the outbox in French.
    const queue = JSON.stringify(await cliJson(db, 'mail', 'queue'));
    expect(queue).toContain('Votre rendez-vous');
  });
});

import { existsSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { insertBooking } from '../../src/store/bookings.ts';
import { insertCustomer } from '../../src/store/customers.ts';
import { openStore } from '../../src/store/db.ts';
import { cli, cliJson, cliOk, initDb, refused, tempDb } from '../helpers.ts';

/** Seeds booked appointments at fixed instants (far past and far future: the test does not depend on today). */
function seed(db: string, starts: string[]) {
  const store = openStore(db);
  try {
    store.tx(() => {
      starts.forEach((start, index) => {
        const startAt = Date.parse(start) / 1000;
        insertBooking(store, {
          reference: `REF${index}AAAAAAAAAAAA`,
          scheduleId: 1,
          reasonId: 1,
          customerId: insertCustomer(store, `c${index}@example.com`, '2026-01-01T00:00:00Z'),
          startAt,
          endAt: startAt + 1800,
          submission: { first_name: 'Ada', last_name: 'L', email: `c${index}@example.com` },
          source: 'api',
          createdAt: '2026-01-01T00:00:00Z',
          buffers: { before: 0, after: 0 },
        });
      });
    });
  } finally {
    store.close();
  }
}

describe('planner init and practice: the settings from init can be changed (issue 24, item 1)', () => {
  it.each([
    ['CET', 'use Europe/Berlin'],
    ['EST5EDT', 'use America/New_York'],
    ['GB', 'use Europe/London'],
    ['US/Eastern', 'use America/New_York'],
    ['europe/berlin', 'use Europe/Berlin'],
    ['Etc/GMT+5', "use the place's zone"],
    ['Mars/Olympus', 'is not an IANA time zone'],
  ])('init --timezone %s is refused with a suggestion (%s), and no file is made', async (zone, hint) => {
    const db = tempDb();
    const result = await cli(db, 'init', '--name', 'P', '--timezone', zone, '--notify', 'desk@p.example');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      new RegExp(`^planner: --timezone: "${zone.replace(/[+/]/g, '\\$&')}" .*${hint.replace(/[+/]/g, '\\$&')}`),
    );
    expect(result.stderr.split('\n')).toHaveLength(2); // one line
    expect(existsSync(db)).toBe(false);
  });

  it('init takes the address, phone and website; --locale de writes the default form labels in German (item 10)', async () => {
    const db = tempDb();
    await cliOk(
      db,
      'init',
      '--name',
      'Physio Nord',
      '--timezone',
      'Europe/Berlin',
      '--notify',
      'desk@nord.example',
      '--locale',
      'de',
      '--address',
      'Hafenstraße 3, 20459 Hamburg',
      '--phone',
      '+49 40 123456',
      '--website',
      'https://physio-nord.example',
    );
    expect(await cliJson(db, 'practice', 'show')).toEqual({
      practiceName: 'Physio Nord',
      timeZone: 'Europe/Berlin',
      locale: 'de',
      languages: ['de'],
      notifyEmail: 'desk@nord.example',
      address: 'Hafenstraße 3, 20459 Hamburg',
      phone: '+49 40 123456',
      website: 'https://physio-nord.example',
    });
    expect((await cliJson(db, 'field', 'list')).map((field: any) => field.label)).toEqual([
      'Vorname',
      'Nachname',
      'E-Mail',
      'Telefon',
    ]);
    const english = tempDb();
    await initDb(english);
    expect((await cliJson(english, 'field', 'list')).map((field: any) => field.label)).toEqual([
      'First name',
      'Last name',
      'E-mail',
      'Phone',
    ]);
    expect(await cliOk(english, 'practice', 'show')).toMatch(
      /^address +not given \(planner practice set --address …\)$/m,
    );
    // At a glance: status shows where customers find the practice, doctor warns when they cannot.
    expect(await cliOk(db, 'status')).toMatch(
      /^contact +Hafenstraße 3, 20459 Hamburg · \+49 40 123456 · https:\/\/physio-nord\.example$/m,
    );
    expect(await cliOk(english, 'status')).toMatch(
      /^contact +no address, phone or website: customers are not told where to go or whom to call \(planner practice set\)$/m,
    );
    expect((await cli(db, 'doctor')).stdout).toMatch(/^ok +contact +Hafenstraße 3, 20459 Hamburg · \+49 40 123456$/m);
    expect((await cli(english, 'doctor')).stdout).toMatch(
      /^warn +contact +no address and no phone: mails and the page cannot tell customers/m,
    );
  });

  it('practice set changes what it is given; a new zone keeps every instant and counts the upcoming bookings that now read differently', async () => {
    const db = tempDb();
    await initDb(db);
    await cliOk(db, 'schedule', 'add', 'Dr. Weber');
    await cliOk(db, 'reason', 'add', '1', 'Check-up', '--duration', '30');
    // Two far-future bookings (one in summer, one in winter) and one long past.
    seed(db, ['2099-07-01T08:00:00Z', '2099-12-01T09:00:00Z', '2001-03-01T09:00:00Z']);
    const instants = () =>
      new DatabaseSync(db, { readOnly: true }).prepare('SELECT start_at FROM bookings ORDER BY id').all();
    const before = instants();

    // Berlin and Paris read every instant alike: nothing shows another time.
    expect(await cliOk(db, 'practice', 'set', '--timezone', 'Europe/Paris')).toMatch(
      /^The time zone changed from Europe\/Berlin to Europe\/Paris: no upcoming booking shows another local time\.$/m,
    );
    // London reads both upcoming ones an hour earlier; the past one is not counted.
    expect(
      await cliOk(
        db,
        'practice',
        'set',
        '--timezone',
        'Europe/London',
        '--name',
        'Praxis Weber',
        '--phone',
        '+44 20 7946 0000',
      ),
    ).toMatch(
      /^The time zone changed from Europe\/Paris to Europe\/London: 2 upcoming booking\(s\) keep their instant and now show another local time/m,
    );
    expect(instants()).toEqual(before);
    expect(await cliJson(db, 'practice', 'show')).toMatchObject({
      practiceName: 'Praxis Weber',
      timeZone: 'Europe/London',
      phone: '+44 20 7946 0000',
      locale: 'en',
    });
    expect((await cliJson(db, 'status')).timeZone).toBe('Europe/London');

    // A new language: the form's labels (perhaps the practice's own words) stay, and it says how to change them.
    expect(await cliOk(db, 'practice', 'set', '--locale', 'de')).toMatch(
      /^Notices, the feed, the desk and the pages now speak de, as do the mails of customers who asked for no other language \(the others keep theirs\); the form's labels keep their words/m,
    );
    expect((await cliJson(db, 'field', 'list'))[0].label).toBe('First name');

    // '' clears a contact setting.
    await cliOk(db, 'practice', 'set', '--phone', '');
    expect((await cliJson(db, 'practice', 'show')).phone).toBe('');
  });

  it.each([
    [['--timezone', 'GB'], /^planner: --timezone: "GB" is a legacy or ambiguous time zone name: use Europe\/London\n$/],
    [
      ['--website', 'ftp://files.example'],
      /^planner: --website: "ftp:\/\/files.example" is not a website address \(example: https:\/\/practice.example\)\n$/,
    ],
    [['--phone', 'call us'], /^planner: --phone: "call us" is not a phone number/],
    [['--notify', 'desk'], /^planner: --notify: "desk" is not an e-mail address/],
    [['--locale', 'pt'], /^planner: --locale: locale must be one of en, de, fr, it, es, nl\n$/],
    [['--address', 'line one\nline two'], /^planner: --address: the address /],
  ])('practice set %j is refused with one line and changes nothing', async (args, message) => {
    const db = tempDb();
    await initDb(db);
    await refused(db, ['practice', 'set', '--name', 'Changed', ...args], message); // --name alone would be fine
  });

  it('practice set without an option, and practice show before init, say what to do', async () => {
    const db = tempDb();
    openStore(db).close(); // a file with the schema, not set up
    expect((await cli(db, 'practice', 'show')).stderr).toBe(
      'planner: planner is not set up yet: run `planner init` first\n',
    );
    await initDb(db);
    const bare = await cli(db, 'practice', 'set');
    expect(bare.code).toBe(1);
    expect(bare.stderr).toBe(
      'planner: nothing to change: give at least one of --name, --timezone, --notify, --locale, --languages, --address, --phone, --website\n',
    );
  });

  it('doctor warns about a legacy zone name an older version accepted, with the fix', async () => {
    const db = tempDb();
    await initDb(db);
    const file = new DatabaseSync(db);
    file.exec("UPDATE settings SET time_zone = 'CET'");
    file.close();
    expect((await cli(db, 'doctor')).stdout).toMatch(
      /^warn +time zone +"CET" is a legacy or ambiguous time zone name: use Europe\/Berlin \(planner practice set --timezone …\)$/m,
    );
    await cliOk(db, 'practice', 'set', '--timezone', 'Europe/Berlin');
    expect((await cli(db, 'doctor')).stdout).toMatch(/^ok +time zone +Europe\/Berlin$/m);
  });

  it('a zone this Node does not know: doctor fails on it, and doctor and status still print their times (in UTC, said so)', async () => {
    const db = tempDb();
    await initDb(db);
    await cliOk(db, 'api', 'enable');
    await cliOk(db, 'token', 'new');
    const file = new DatabaseSync(db);
    file.exec("UPDATE settings SET time_zone = 'Mars/Olympus_Mons'");
    file.close();
    const doctor = await cli(db, 'doctor');
    expect(doctor.code).toBe(1);
    expect(doctor.stderr).toMatch(/^planner: doctor found \d+ problem\(s\)/); // its summary, not a crash
    expect(doctor.stderr).not.toContain('RangeError');
    expect(doctor.stdout).toMatch(/^fail +time zone +.*Mars\/Olympus_Mons/m);
    expect(doctor.stdout).toMatch(/^ok +clock +\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/m);
    const status = await cli(db, 'status');
    expect(status).toMatchObject({ code: 0, stderr: '' });
    expect(status.stdout).toMatch(/token present \(created \d{4}-\d\d-\d\d \d\d:\d\d UTC\)/);
  });
});

/** The calendar's address in every output (issue 25): secret parts masked, the rest readable. */
import { describe, expect, it } from 'vitest';
import { maskCalendarUrl } from '../../src/calendar/url.ts';

describe('maskCalendarUrl', () => {
  it.each([
    [
      'https://calendar.google.com/calendar/ical/anna%40gmail.com/private-8f2c1d9e0a7b6c5d4e3f2a1b0c9d8e7f/basic.ics',
      'https://calendar.google.com/calendar/ical/anna%40gmail.com/…/basic.ics',
    ],
    [
      'webcal://p123-caldav.icloud.com/published/2/MTIzNDU2Nzg5MDEyMzQ1Nqz9xYt1Kq',
      'https://p123-caldav.icloud.com/published/2/…',
    ],
    [
      'https://outlook.office365.com/owa/calendar/1f2e3d4c5b6a47988776655443322110@example.com/a1b2c3d4e5f60718293a4b5c6d7e8f90/calendar.ics',
      'https://outlook.office365.com/owa/calendar/…/…/calendar.ics',
    ],
    [
      'https://cloud.example.com/remote.php/dav/calendars/anna/personal/',
      'https://cloud.example.com/remote.php/dav/calendars/anna/personal/',
    ],
    // Nextcloud's public link: 16 letters, no digit (about 7 % of its tokens).
    [
      'https://cloud.example.com/remote.php/dav/public-calendars/AbCdEfGhIjKlMnOp',
      'https://cloud.example.com/remote.php/dav/public-calendars/…',
    ],
    [
      'https://caldav.fastmail.com/dav/calendars/user/anna@fastmail.com/0c5e9a1f-2b3d-4e5f-8a9b-0c1d2e3f4a5b/',
      'https://caldav.fastmail.com/dav/calendars/user/…/…/',
    ],
    ['https://cal.example.com/export.ics?token=s3cr3t&user=anna', 'https://cal.example.com/export.ics?…'],
    ['https://cal.example.com/u/12345678/cal.ics', 'https://cal.example.com/u/…/cal.ics'],
  ])('%s', (url, masked) => {
    expect(maskCalendarUrl(url)).toBe(masked);
  });
});

/** The booking page's days as weeks (issue 41): pages of whole weeks, and the grid's cells (pure kit functions). */
import { describe, expect, it } from 'vitest';
import { daysPage } from '../../src/portal/book-pages.ts';
import { DAYS_PER_PAGE, pageOfWeeks, weekGrid } from '../../src/portal/kit.ts';

/** Every day from `first` for `count` days, but Sundays. */
function weekdays(first: string, count: number): string[] {
  const days: string[] = [];
  for (let index = 0; index < count; index++) {
    const date = new Date(`${first}T12:00:00Z`);
    date.setUTCDate(date.getUTCDate() + index);
    if (date.getUTCDay() !== 0) days.push(date.toISOString().slice(0, 10));
  }
  return days;
}

const weekOf = (day: string) => {
  const date = new Date(`${day}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() - ((date.getUTCDay() + 6) % 7));
  return date.toISOString().slice(0, 10);
};

describe('pages of whole weeks', () => {
  const days = weekdays('2026-11-26', 120); // a Thursday; six days a week

  it('take at least DAYS_PER_PAGE free days and never split a week; the pages cover every day once, in order', () => {
    const seen: string[] = [];
    let page = pageOfWeeks(days);
    for (let turns = 0; turns < 50; turns++) {
      seen.push(...page.days);
      if (page.pages.later === undefined) break;
      expect(page.days.length).toBeGreaterThanOrEqual(DAYS_PER_PAGE);
      expect(weekOf(page.pages.later)).not.toBe(weekOf(page.days.at(-1)!));
      const next = pageOfWeeks(days, page.pages.later);
      expect(next.pages.earlier).toBe(page.days[0]);
      page = next;
    }
    expect(seen).toEqual(days);
  });

  it('a day in the middle of a page opens that page; a day after the last opens the last; none: empty', () => {
    const first = pageOfWeeks(days);
    expect(pageOfWeeks(days, first.days[5])).toEqual(first);
    const last = pageOfWeeks(days, '2099-01-01');
    expect(last.days.at(-1)).toBe(days.at(-1));
    expect(last.pages.later).toBeUndefined();
    expect(pageOfWeeks([], '2026-12-01')).toEqual({ days: [], pages: {} });
  });
});

describe('the grid of weeks', () => {
  const html = weekGrid(['2026-11-26', '2026-11-27', '2026-12-01'], {
    dateLocale: 'en-GB',
    caption: 'November – December 2026',
    href: (day) => `/book/times?day=${day}`,
    first: '2026-11-26',
    firstWords: 'the first free day',
  });

  it('has a row a week, Monday first, a link for each free day named in words, the first marked', () => {
    expect(html.match(/<tr>/g)).toHaveLength(3); // the head and two weeks
    expect(html).toContain('<abbr title="Monday">Mon</abbr>');
    expect([...html.matchAll(/href="([^"]+)"/g)].map((match) => match[1])).toEqual([
      '/book/times?day=2026-11-26',
      '/book/times?day=2026-11-27',
      '/book/times?day=2026-12-01',
    ]);
    expect(html).toContain(
      '<a class="first" href="/book/times?day=2026-11-26"><span aria-hidden="true">26</span><span class="sr">Thursday, 26 November 2026, the first free day</span></a>',
    );
    // A day without a free time is shown, not a link; the month at a week's first day and at the 1st.
    expect(html).toContain('<td><span class="off" aria-hidden="true">23<span class="month">Nov</span></span></td>');
    expect(html).toContain('<span aria-hidden="true">1<span class="month">Dec</span></span>');
  });
});

describe('the booking page’s days', () => {
  const view = {
    practice: { locale: 'en' as const, practiceName: 'Praxis', address: '', phone: '', website: '' },
    privacyUrl: null,
    manyOffers: false,
  };
  const offer = {
    scheduleId: 1,
    scheduleName: 'Dr. Weber',
    reasonId: 1,
    reasonName: 'Check-up',
    description: '',
    minutes: 30,
  };

  it('say the first free day is filled in only on the page that holds it (the first)', () => {
    const days = ['2026-11-26', '2026-11-27'];
    const first = daysPage({ view, offer, days, pages: { later: '2026-12-01' } }).html;
    expect(first).toContain(
      '<p class="legend">Days with free times can be chosen. The first free day is filled in.</p>',
    );
    expect(first).toContain('<a class="first" href=');
    const later = daysPage({ view, offer, days, pages: { earlier: '2026-11-01' } }).html;
    expect(later).toContain('<p class="legend">Days with free times can be chosen.</p>');
    expect(later).not.toContain('class="first"');
  });
});

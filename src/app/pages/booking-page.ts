/**
 * The public booking page (`/book/`): turning it on and off, what it offers, and its bookings. A booking
 * made there is the API's booking (createBooking: the same transaction, engine, mails, reminders and webhooks),
 * made once per form (actOnce, the form's key as its Idempotency-Key), with the source `page` and the actor `customer`.
 */

import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import {
  contrastRatio,
  DEFAULT_COLOUR,
  isColour,
  LOGO_MAX_BYTES,
  LOGO_MAX_SIDE,
  logoType,
  MIN_CONTRAST,
} from '../../domain/brand.ts';
import { emailKey, parsePlainInt } from '../../domain/checks.ts';
import { imageSize } from '../../domain/image-size.ts';
import { AppError, invalid } from '../../errors.ts';
import { type Logo, readLogo, setLogo } from '../../store/booking-logo.ts';
import { countFutureBookingsOfKey } from '../../store/bookings.ts';
import { listAllReasons, type Reason } from '../../store/reasons.ts';
import type { Schedule } from '../../store/schedules.ts';
import { findSchedule } from '../../store/schedules.ts';
import { type BookingPageSettings, setBookingPage } from '../../store/settings.ts';
import { bookableSchedules } from '../bookings/availability.ts';
import { type AppContext, unixSeconds } from '../context.ts';
import { requireConfigured } from '../practice/configured.ts';
import { checkPublicUrl } from '../practice/public-url.ts';

/** Bookings the page takes from one client address in an hour, unless `--per-hour` says otherwise. */
export const DEFAULT_PER_HOUR = 5;
/** The hour `--per-hour` counts an address's bookings in: a sliding window, the 429's `RateLimit-Policy` window too. */
export const PER_HOUR_WINDOW_SECONDS = 3600;
/** The page books no more for an e-mail address that holds this many future bookings (made anywhere), unless `--per-email` says otherwise. */
export const DEFAULT_PER_EMAIL = 3;
/** A form is refused when sent sooner than this after the page made it (a person reads and types; a script does not). */
export const FORM_MIN_SECONDS = 3;
/** A form is refused when sent later than this after the page made it (its times may be gone; a fresh form is offered). */
export const FORM_MAX_SECONDS = 2 * 3600;

/** What `booking-page enable` changes; what is not given keeps its value (first time: all schedules, 5, 3). */
export interface BookingPageOptions {
  schedules?: string;
  embedFrom?: string;
  privacyUrl?: string;
  perHour?: string;
  perEmail?: string;
  /** `#rrggbb`, or `default` (planner's blue). */
  colour?: string;
  /** A PNG, JPEG or WebP file of at most 100 KiB and 2000 pixels on a side, or `none`. */
  logo?: string;
}

/** `--colour` as kept: a colour white text reads on (and that reads on white), or null for the default. */
function checkColour(text: string): string | null {
  const colour = text.trim();
  if (colour === 'default') return null;
  if (!isColour(colour))
    throw invalid(`--colour takes a colour as #rrggbb, or default (got "${text}"): e.g. --colour ${DEFAULT_COLOUR}`);
  const ratio = contrastRatio(colour, '#ffffff');
  if (ratio < MIN_CONTRAST) {
    throw invalid(
      `--colour ${colour} is too light: white text on it has a contrast of ${ratio.toFixed(1)}:1 and needs at least ${MIN_CONTRAST}:1 (WCAG AA); choose a darker shade`,
    );
  }
  return colour.toLowerCase();
}

/**
 * What is wrong with the size in pixels a logo's bytes declare, or undefined when it fits: more than LOGO_MAX_SIDE on a
 * side, or a size that cannot be read (so nothing bounds it). `what` follows "is"; `fix` says what to do.
 */
function logoSizeProblem(bytes: Uint8Array): { what: string; fix: string } | undefined {
  const size = imageSize(bytes);
  if (!size) {
    const name = { 'image/png': 'PNG', 'image/jpeg': 'JPEG', 'image/webp': 'WebP' }[logoType(bytes) ?? 'image/png'];
    return {
      what: `a ${name} whose size in pixels cannot be read (a damaged or cut-off file)`,
      fix: 'save it again as PNG, JPEG or WebP',
    };
  }
  if (Math.max(size.width, size.height) <= LOGO_MAX_SIDE) return undefined;
  return {
    what: `${size.width} × ${size.height} pixels; the page takes at most ${LOGO_MAX_SIDE} on a side`,
    fix: 'scale it down (a logo of about 400 pixels wide is enough)',
  };
}

/** `--logo <file>` read and checked (at most LOGO_MAX_BYTES, PNG, JPEG or WebP, LOGO_MAX_SIDE), or null for `none`. */
function readLogoFile(file: string): Logo | null {
  if (file.trim() === 'none') return null;
  let size: number;
  try {
    const stat = statSync(file);
    if (!stat.isFile()) throw invalid(`--logo ${file} is not a file`);
    size = stat.size;
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw invalid(`--logo ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  if (size > LOGO_MAX_BYTES) {
    throw invalid(
      `--logo ${file} has ${Math.ceil(size / 1024)} KiB; the page takes at most ${LOGO_MAX_BYTES / 1024} KiB (a logo of about 400 pixels wide is enough)`,
    );
  }
  // Read no more than the limit, whatever the file became since it was measured.
  const bytes = Buffer.alloc(LOGO_MAX_BYTES + 1);
  const handle = openSync(file, 'r');
  let length: number;
  try {
    length = readSync(handle, bytes, 0, bytes.length, 0);
  } finally {
    closeSync(handle);
  }
  if (length > LOGO_MAX_BYTES) throw invalid(`--logo ${file} grew past ${LOGO_MAX_BYTES / 1024} KiB while it was read`);
  const content = bytes.subarray(0, length);
  const type = logoType(content);
  if (!type) throw invalid(`--logo ${file} is not a PNG, JPEG or WebP image (SVG is not taken: it can hold script)`);
  const problem = logoSizeProblem(content);
  if (problem) throw invalid(`--logo ${file} is ${problem.what}: ${problem.fix}`);
  return { type, bytes: content, version: createHash('sha256').update(content).digest('hex').slice(0, 16) };
}

function checkSchedules(ctx: AppContext, text: string): 'all' | number[] {
  if (text.trim() === 'all') return 'all';
  const ids = text.split(',').map((part) => parsePlainInt(part.trim()));
  if (ids.length === 0 || ids.some((id) => id === undefined || id < 1)) {
    throw invalid(`--schedules takes schedule ids separated by commas, or all (got "${text}"): e.g. --schedules 1,2`);
  }
  for (const id of ids as number[]) {
    if (!findSchedule(ctx.store, id))
      throw new AppError('not_found', `schedule ${id} does not exist (planner schedule list shows the ids)`);
  }
  return [...new Set(ids as number[])];
}

/** Returns `--embed-from` as origins (`https://host[:port]`), or throws naming the one that is not. */
function checkEmbedFrom(text: string): string[] {
  if (text.trim() === '' || text.trim() === 'none') return [];
  return [
    ...new Set(
      text.split(',').map((part) => {
        let url: URL;
        try {
          url = new URL(part.trim());
        } catch {
          throw invalid(
            `--embed-from takes origins such as https://www.praxis.example, separated by commas (got "${part.trim()}")`,
          );
        }
        if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.origin !== part.trim().replace(/\/$/, '')) {
          throw invalid(
            `--embed-from takes origins only, without a path (got "${part.trim()}"): e.g. https://www.praxis.example`,
          );
        }
        return url.origin;
      }),
    ),
  ];
}

function checkPrivacyUrl(text: string): string | null {
  if (text.trim() === '' || text.trim() === 'none') return null;
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw invalid(`--privacy-url "${text}" is not a URL (example: https://www.praxis.example/privacy)`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw invalid(`--privacy-url must be an http(s) address (got "${text}")`);
  return url.href;
}

function checkCount(text: string, option: string, max: number): number {
  const value = parsePlainInt(text.trim());
  if (value === undefined || value < 1 || value > max)
    throw invalid(`${option} takes a whole number from 1 to ${max} (got "${text}")`);
  return value;
}

/**
 * Turns the page on, or changes its settings; it is served at the self-service page's public address
 * (`planner portal enable --url`), which must be set first.
 */
export function enableBookingPage(ctx: AppContext, options: BookingPageOptions): BookingPageSettings & { url: string } {
  const settings = requireConfigured(ctx);
  if (!settings.portal) {
    throw invalid(
      "the booking page is served at the self-service page's public address: run planner portal enable --url https://booking.praxis.example first",
    );
  }
  const before = settings.bookingPage;
  const page: BookingPageSettings = {
    schedules: options.schedules === undefined ? (before?.schedules ?? 'all') : checkSchedules(ctx, options.schedules),
    embedFrom: options.embedFrom === undefined ? (before?.embedFrom ?? []) : checkEmbedFrom(options.embedFrom),
    privacyUrl: options.privacyUrl === undefined ? (before?.privacyUrl ?? null) : checkPrivacyUrl(options.privacyUrl),
    perHour:
      options.perHour === undefined
        ? (before?.perHour ?? DEFAULT_PER_HOUR)
        : checkCount(options.perHour, '--per-hour', 10_000),
    perEmail:
      options.perEmail === undefined
        ? (before?.perEmail ?? DEFAULT_PER_EMAIL)
        : checkCount(options.perEmail, '--per-email', 1000),
    colour: options.colour === undefined ? (before?.colour ?? null) : checkColour(options.colour),
    logo: before?.logo ?? null,
  };
  const logo = options.logo === undefined ? undefined : readLogoFile(options.logo);
  if (logo !== undefined) page.logo = logo?.version ?? null;
  ctx.store.tx(() => {
    if (logo !== undefined) setLogo(ctx.store, logo);
    setBookingPage(ctx.store, page);
  });
  return { ...page, url: `${checkPublicUrl(settings.portal.url)}/book/` };
}

/**
 * What is wrong with the logo the page shows, for `planner doctor`: a logo kept before its size was checked may declare
 * more pixels than LOGO_MAX_SIDE allows, or none that can be read. It is still served (the practice chose it, and
 * taking it off the page is theirs to do); doctor says how to replace it.
 */
export function bookingLogoProblem(ctx: AppContext): string | undefined {
  const logo = bookingLogo(ctx);
  const problem = logo && logoSizeProblem(logo.bytes);
  return (
    problem &&
    `the booking page's logo is ${problem.what}: ${problem.fix}, then planner booking-page enable --logo <file> (or --logo none)`
  );
}

/** The logo the page shows, when it is on and has one (`/book/logo`). */
export function bookingLogo(ctx: AppContext): Logo | undefined {
  return ctx.settings().bookingPage?.logo ? readLogo(ctx.store) : undefined;
}

/** Turns the page off: `/book/` answers the not-found page. */
export function disableBookingPage(ctx: AppContext): void {
  requireConfigured(ctx);
  setBookingPage(ctx.store, null);
}

/** What `booking-page status` shows. */
export type BookingPageStatus =
  | { enabled: false }
  | ({
      enabled: true;
      url: string | null;
      served: boolean;
      offers: { id: number; name: string; reasons: string[] }[];
    } & BookingPageSettings);

export function bookingPageStatus(ctx: AppContext): BookingPageStatus {
  const settings = requireConfigured(ctx);
  const page = settings.bookingPage;
  if (!page) return { enabled: false };
  const offers = pageOffers(ctx, page).map(({ schedule, reasons }) => ({
    id: schedule.id,
    name: schedule.name,
    reasons: reasons.map((reason) => reason.name),
  }));
  return {
    enabled: true,
    url: settings.portal ? `${settings.portal.url}/book/` : null,
    served: settings.portal !== null,
    offers,
    ...page,
  };
}

/** What the page offers: its schedules that are bookable now, each with its reasons (none left out empty). Two queries. */
export function pageOffers(ctx: AppContext, page: BookingPageSettings): { schedule: Schedule; reasons: Reason[] }[] {
  const reasons = listAllReasons(ctx.store);
  return bookableSchedules(ctx)
    .filter((schedule) => page.schedules === 'all' || page.schedules.includes(schedule.id))
    .map((schedule) => ({ schedule, reasons: reasons.filter((reason) => reason.scheduleIds.includes(schedule.id)) }))
    .filter((offer) => offer.reasons.length > 0);
}

/** How many future bookings (not cancelled) the customer with `email` holds (the same address: `emailKey`). */
export function futureBookingsOf(ctx: AppContext, email: string): number {
  const key = emailKey(email);
  if (key === undefined) return 0; // not an address: nobody's (the form refuses it before this is asked)
  return countFutureBookingsOfKey(ctx.store, key, unixSeconds(ctx.now()));
}

import { readableColour } from '../domain/brand.ts';
import { addressOf } from '../domain/checks.ts';
import { imageSize } from '../domain/image-size.ts';
import { servedIn } from '../domain/languages.ts';
import { manageUrlOf } from '../domain/manage-url.ts';
import { reminderTooLate } from '../domain/reminders.ts';
import { startOutboxLoop } from '../queue/outbox-loop.ts';
import type { AttemptOutcome, RetrySettings } from '../queue/retry-policy.ts';
import { type Logo, readLogo } from '../store/booking-logo.ts';
import type { Store } from '../store/db.ts';
import { createManageToken } from '../store/manage-links.ts';
import { claim, type DueMessage, dueMessages, markDropped, markFailed, markRetry, markSent } from '../store/outbox.ts';
import { truncateWal } from '../store/personal-data.ts';
import { seriesOccurrences } from '../store/series.ts';
import type { Settings } from '../store/settings.ts';
import { type MailBrand, typesetMail, withBrand } from './layout.ts';
import {
  LINKED_KINDS,
  MANAGE_MARK,
  type ManageAction,
  manageActionAt,
  seriesActionAt,
  withManageLink,
} from './messages.ts';
import { createMailer, describeFailure, type InlineImage, type Mailer, smtpCodeOf } from './sender.ts';

/** A sender holds a message this long; if it dies meanwhile, another may send it. */
const LEASE_SECONDS = 120;

export interface OutboxWorkerOptions {
  store: Store;
  settings: () => Settings;
  log: (line: string) => void;
  /** The retry policy's settings (the runtime reads them from the environment; default: a 30 s base). */
  retry?: RetrySettings;
  /** How often it looks for due messages (default 1 s); `kick()` looks at once. */
  pollMs?: number;
  nowMs?: () => number;
}

export interface OutboxWorker {
  /** Looks for due messages now (after a booking), without waiting for the next poll. */
  kick(): void;
  /** Delivers what is due now and resolves when that pass has finished. */
  flush(): Promise<void>;
  /** Stops polling and resolves when the delivery in progress, if any, has finished. */
  stop(): Promise<void>;
}

/**
 * Starts delivering the outbox in the background of `planner serve`: due messages go out over SMTP one by one;
 * connection errors, time-outs and 4xx answers are retried with exponential back-off (src/queue/retry-policy.ts);
 * 5xx answers mark the message failed with the reason. A reminder is due at its time (not before); one whose
 * appointment has begun, or whose booking is cancelled, is dropped instead. Without SMTP settings, messages wait.
 * Nothing here can fail a booking.
 */
export function startOutboxWorker(options: OutboxWorkerOptions): OutboxWorker {
  const nowMs = options.nowMs ?? Date.now;
  const { store } = options;
  let mailer: { url: string; mailer: Mailer } | undefined;
  let settings: Settings & { mailUrl: string }; // read once per pass

  const mailerFor = (url: string): Mailer => {
    if (mailer?.url !== url) {
      mailer?.mailer.close();
      mailer = { url, mailer: createMailer(url) };
    }
    return mailer.mailer;
  };

  /**
   * What the manage line of `entry` says at `now`: for a series' confirmation and a cancellation of one of its dates,
   * the series' dates as they stand now decide (one read of the series, only for those mails); else its booking.
   */
  function actionOf(entry: DueMessage, now: number): ManageAction {
    const seriesId = entry.booking?.seriesId ?? null;
    const ofSeries = entry.kind === 'confirmation' || entry.kind === 'cancellation';
    if (ofSeries && seriesId !== null && entry.text.includes(MANAGE_MARK))
      return seriesActionAt(settings.portal, seriesOccurrences(store, seriesId), now, entry.kind);
    if (entry.kind === 'cancellation') return { kind: 'none' };
    return manageActionAt(settings.portal, entry.booking, now, Math.floor(Date.parse(entry.createdAt) / 1000));
  }

  /** A message of an erased booking was recorded but the WAL could not be emptied then. */
  let walDirty = false;

  /** The logo as last read, by its version: read again only when the practice changes it. */
  let logo: { version: string; logo: Logo | undefined; size: ReturnType<typeof imageSize> } | undefined;

  /** The practice's look for the mails of this pass: the booking page's colour and logo, read from the store now. */
  function lookNow(domain: string): { brand: MailBrand; image?: InlineImage } {
    const page = settings.bookingPage;
    const colour = readableColour(page?.colour);
    if (!page?.logo) return { brand: { colour } };
    if (logo?.version !== page.logo) {
      const read = readLogo(store);
      logo = { version: page.logo, logo: read, size: read && imageSize(read.bytes) };
    }
    const kept = logo.logo;
    if (!kept) return { brand: { colour } };
    const cid = `logo-${kept.version.slice(0, 16)}@${domain}`;
    const { size } = logo;
    return {
      brand: { colour, logo: { cid, width: size?.width, height: size?.height } },
      image: { cid, type: kept.type, bytes: kept.bytes },
    };
  }

  async function attempt(entry: DueMessage): Promise<AttemptOutcome> {
    const from = settings.mailFrom ?? settings.notifyEmail ?? '';
    const domain = addressOf(from).split('@')[1] || 'planner.invalid';
    try {
      const look = lookNow(domain);
      // What the manage line says is decided now, under the page's current rules and the booking's current start:
      // the link with its deadline while a change is still possible, else the phone number (without a date when the
      // deadline had passed already when the mail was written).
      // The link is made now, for this mail only: its token exists in clear only here and in the mail.
      const action = actionOf(entry, Math.floor(nowMs() / 1000));
      const link =
        (action.kind === 'link' || action.kind === 'series') &&
        settings.portal &&
        entry.bookingId !== null &&
        LINKED_KINDS.includes(entry.kind) &&
        entry.text.includes(MANAGE_MARK)
          ? manageUrlOf(settings.portal.url, createManageToken(store, entry.bookingId, new Date(nowMs()).toISOString()))
          : undefined;
      // In the customer's language: the booking's while offered, else the practice's.
      const view = {
        locale: servedIn(settings.languages, entry.booking?.locale),
        timeZone: settings.timeZone ?? 'UTC',
        practiceName: settings.practiceName ?? '',
        phone: settings.phone,
        accent: look.brand.colour,
      };
      // The practice's look as it is now (a logo changed since the mail was written goes out new), then its
      // manage line, then every word typeset as the mail's language writes it.
      const html = withBrand(entry.html, look.brand);
      const message = typesetMail(withManageLink({ ...entry, html }, view, action, link));
      const images = look.image && html.includes(`cid:${look.image.cid}`) ? [look.image] : [];
      const outgoing = images.length > 0 ? { ...message, images } : message;
      // A stable Message-ID per message: a receiver can drop the copy of a retry it had already taken.
      await mailerFor(settings.mailUrl).send(from, outgoing, `<outbox-${entry.id}-${entry.retryFrom}@${domain}>`);
      return { delivered: true };
    } catch (error) {
      return { delivered: false, reason: describeFailure(error), smtpCode: smtpCodeOf(error) };
    }
  }

  const pump = startOutboxLoop<DueMessage>(
    {
      what: 'outbox',
      leaseSeconds: LEASE_SECONDS,
      beginPass() {
        if (walDirty) walDirty = truncateWal(store) === 'busy';
        const current = options.settings();
        if (!current.mailUrl) return false; // not configured: the messages wait
        settings = current as Settings & { mailUrl: string };
        return true;
      },
      due: (now, limit) => dueMessages(store, now, limit),
      // A reminder that came due too late (the server was down, or its retries ran past the start) is dropped,
      // with the reason, instead of sent; `planner mail queue` shows it.
      settle(entry, now) {
        const late = reminderTooLate(entry, now);
        if (late === undefined) return false;
        if (markDropped(store, entry.id, late, now)) options.log(`planner: reminder ${entry.id} dropped: ${late}`);
        return true;
      },
      claim: (id, now, until) => claim(store, id, now, until),
      attempt,
      // A message of an erased booking (the erase's own cancellation) loses its personal data as it is recorded
      // (`scrubIfErased`); the WAL is emptied then, so that no older copy of it stays in the file.
      // The WAL is emptied without waiting for another process's read; if one held it, the next pass tries again.
      sent: (id, at) => {
        if (markSent(store, id, at)) walDirty = truncateWal(store) === 'busy';
      },
      failed: (id, reason) => {
        if (markFailed(store, id, reason)) walDirty = truncateWal(store) === 'busy';
      },
      retry: (id, reason, at) => markRetry(store, id, reason, at),
      describe: (entry) => `mail ${entry.id} (${entry.kind})`,
    },
    { log: options.log, nowMs, retry: options.retry, pollMs: options.pollMs },
  );
  return {
    kick: pump.kick,
    flush: pump.flush,
    async stop() {
      await pump.stop();
      mailer?.mailer.close();
    },
  };
}

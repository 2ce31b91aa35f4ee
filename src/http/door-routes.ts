/**
 * The routes of the HTML doors and of the calendar feed, outside the `/api` gates: one table of h3 routes, as
 * routes.ts is the API's. A door's module makes its handlers, by name; this table gives each its method and path.
 * A door is loaded at the first request to any of its routes (`lazyDoor`): a server that never serves it never loads
 * its code, which is anonymous memory (docs/performance.md). The last route of a door takes every other path under
 * it, so that the door answers them itself, as it answers a wrong link (its 404 page, not the API's JSON).
 */
import { defineLazyEventHandler, type EventHandler, type H3, type H3Event } from 'h3';
import type { DoorOptions } from './door-options.ts';

/** Returns `load` made once, at the first call (a door's code and state, loaded when its first request comes). */
export function atFirstUse<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => (loaded ??= load());
}

/** A door's handlers, by name. */
type DoorHandlers = Record<string, EventHandler>;

/**
 * Returns `handler(name)`: the door's handler `name`, as an h3 handler that loads the door at its first request
 * (once for all its routes, which share its state: a throttle, the booking page's counts per address).
 */
function lazyDoor<T extends DoorHandlers>(load: () => Promise<T>): (name: keyof T) => EventHandler {
  const door = atFirstUse(load);
  return (name) => defineLazyEventHandler(() => door().then((handlers) => handlers[name]!));
}

/**
 * The mark of a door's route: the app lets its requests past the `/api` gates (`isDoorRoute`). `within`: only the
 * paths that begin with it (the router's `/feed/**` takes `/feed` itself too, which is no door's path).
 */
const doorRoute = (within?: string) => ({ meta: { door: within ?? true } });

/** True when `event` matched a door's route (the feed, the self-service page, the booking page). */
export function isDoorRoute(event: H3Event): boolean {
  const door = (event.context.matchedRoute?.meta as { door?: true | string } | undefined)?.door;
  return door === true || (door !== undefined && event.url.pathname.startsWith(door));
}

/** How a door's routes are added: GET (and HEAD), POST, and every method of the paths it takes as a whole. */
interface DoorRouter {
  get(path: string, handler: EventHandler): void;
  post(path: string, handler: EventHandler): void;
  /** Every method; `within`: only paths that begin with it are the door's (see `doorRoute`). */
  every(path: string, handler: EventHandler, within?: string): void;
}

/** The router of the doors on `app`: every route it adds is marked a door's. */
function doorRouter(app: H3): DoorRouter {
  return {
    // RFC 9110 §9.3.2: HEAD answers as GET does, without the body. Said for each route: h3 takes a GET route for HEAD
    // only when no other route matches, and a door's last route (all methods) would.
    get(path, handler) {
      app.get(path, handler, doorRoute()).head(path, handler, doorRoute());
    },
    post(path, handler) {
      app.post(path, handler, doorRoute());
    },
    every(path, handler, within) {
      app.all(path, handler, doorRoute(within));
    },
  };
}

/** The practitioner's calendar feed, keyed by the secret in its address. */
function feedRoutes({ get, every }: DoorRouter, options: DoorOptions): void {
  const feed = lazyDoor(() => import('./feed.ts').then(({ createFeedDoor }) => createFeedDoor(options)));
  get('/feed/:secret.ics', feed('calendar'));
  every('/feed/**', feed('unknownPath'), '/feed/');
}

/** The customer's self-service page: a booking opened by its link's token (or another date of its series), its cancel and its move. */
function selfServiceRoutes({ get, post, every }: DoorRouter, options: DoorOptions): void {
  const manage = lazyDoor(() => import('./portal.ts').then(({ createPortalDoor }) => createPortalDoor(options)));
  get('/manage/:token', manage('overview'));
  get('/manage/:token/cancel', manage('cancelStep'));
  post('/manage/:token/cancel', manage('cancel'));
  get('/manage/:token/reschedule', manage('moveStep'));
  post('/manage/:token/reschedule', manage('move'));
  // Another date of the link's series: the same page and steps, per date.
  get('/manage/:token/date/:reference', manage('overview'));
  get('/manage/:token/date/:reference/cancel', manage('cancelStep'));
  post('/manage/:token/date/:reference/cancel', manage('cancel'));
  get('/manage/:token/date/:reference/reschedule', manage('moveStep'));
  post('/manage/:token/date/:reference/reschedule', manage('move'));
  every('/manage/**', manage('unknownPath'));
}

/** The public booking page: its steps, the confirmation's calendar file, the practice's logo. */
function bookingPageRoutes({ get, post, every }: DoorRouter, options: DoorOptions): void {
  const book = lazyDoor(() =>
    import('./booking-page.ts').then(({ createBookingPageDoor }) => createBookingPageDoor(options)),
  );
  get('/book', book('home'));
  get('/book/days', book('days'));
  get('/book/times', book('times'));
  get('/book/weeks', book('weeks'));
  get('/book/details', book('details'));
  post('/book/details', book('detailsAgain'));
  post('/book/review', book('review'));
  post('/book/confirm', book('confirm'));
  get('/book/event/**', book('calendarFile'));
  get('/book/logo', book('logo'));
  every('/book/**', book('unknownPath'));
}

/** The front desk: login, enrolment, the day, one booking and its changes, customers, free times, booking a caller. */
function deskRoutes({ get, post, every }: DoorRouter, options: DoorOptions): void {
  const desk = lazyDoor(() => import('./desk.ts').then(({ createDeskDoor }) => createDeskDoor(options)));
  get('/desk', desk('home'));
  get('/desk/', desk('home'));
  get('/desk/login', desk('loginForm'));
  post('/desk/login', desk('login'));
  get('/desk/login/code', desk('codeForm'));
  post('/desk/login/code', desk('code'));
  post('/desk/logout', desk('logout'));
  get('/desk/enrol/:token', desk('enrolStep'));
  post('/desk/enrol/:token/password', desk('enrolPassword'));
  post('/desk/enrol/:token/code', desk('enrolCode'));
  get('/desk/day', desk('day'));
  get('/desk/day/:date', desk('day'));
  get('/desk/bookings/:reference', desk('booking'));
  post('/desk/bookings/:reference/attendance', desk('attendance'));
  post('/desk/bookings/:reference/note', desk('note'));
  get('/desk/bookings/:reference/move', desk('moveStep'));
  post('/desk/bookings/:reference/move', desk('move'));
  get('/desk/bookings/:reference/cancel', desk('cancelStep'));
  post('/desk/bookings/:reference/cancel', desk('cancel'));
  post('/desk/bookings/:reference/resend', desk('resend'));
  get('/desk/customers', desk('customers'));
  get('/desk/customers/:id', desk('customer'));
  get('/desk/times', desk('times'));
  get('/desk/book', desk('bookStep'));
  post('/desk/book', desk('bookPost'));
  get('/desk/week/:schedule/:date', desk('week'));
  get('/desk/absences', desk('absences'));
  post('/desk/absences', desk('addAbsence'));
  get('/desk/audit', desk('audit'));
  every('/desk/**', desk('unknownPath'), '/desk/');
}

/** Where Google's OAuth web flow sends the practitioner's browser back (a Google calendar's consent). */
function oauthRoutes({ get, every }: DoorRouter, options: DoorOptions): void {
  const oauth = lazyDoor(() => import('./oauth.ts').then(({ createOAuthDoor }) => createOAuthDoor(options)));
  get('/oauth/google', oauth('google'));
  every('/oauth/**', oauth('unknownPath'), '/oauth/');
}

/** Registers every door's routes on `app`: a door is a function of routes. */
export function registerDoorRoutes(app: H3, options: DoorOptions): void {
  const router = doorRouter(app);
  feedRoutes(router, options);
  selfServiceRoutes(router, options);
  bookingPageRoutes(router, options);
  deskRoutes(router, options);
  oauthRoutes(router, options);
}

/**
 * Forward-only schema migrations. Index i holds the SQL that takes the file from version i to i + 1;
 * the version lives in `PRAGMA user_version`. Never edit a shipped entry: append a new one.
 */
/**
 * Fills the customer search's index with the folded forms of every booking not erased (migration 19;
 * store/bookings.ts `searchKeys` writes the same in JavaScript with each new booking), by the search's SQL functions
 * (store/db.ts), and marks each booking indexed (1) or erased (0).
 */
export const FILL_SEARCH_KEYS = `DELETE FROM booking_search;
  INSERT INTO booking_search (rowid, name, other, digits, email)
    SELECT id, planner_name(concat_ws(' ', submission ->> '$.first_name', submission ->> '$.last_name')),
      planner_search(reference) || char(10) || planner_search(coalesce(submission ->> '$.phone', '')),
      planner_phone(submission ->> '$.phone', ''), planner_email(submission ->> '$.email')
    FROM bookings WHERE erased_at IS NULL;
  UPDATE bookings SET searched = erased_at IS NULL;`;

export const migrations: readonly string[] = [
  // 1: the installation, its schedules and forms, customers and bookings.
  `
  CREATE TABLE settings (
    id            INTEGER PRIMARY KEY CHECK (id = 1),
    practice_name TEXT,
    time_zone     TEXT,
    locale        TEXT NOT NULL DEFAULT 'en' CHECK (locale IN ('en', 'de')),
    notify_email  TEXT,
    configured_at TEXT,
    api_enabled   INTEGER NOT NULL DEFAULT 0 CHECK (api_enabled IN (0, 1)),
    token_hash    TEXT,
    token_created_at TEXT,
    rate_limit    INTEGER NOT NULL DEFAULT 300 CHECK (rate_limit >= 1), -- DEFAULT_RATE_LIMIT (app/api.ts)
    mail_url      TEXT,
    mail_from     TEXT
  ) STRICT;
  INSERT INTO settings (id) VALUES (1);

  CREATE TABLE schedules (
    id             INTEGER PRIMARY KEY,
    name           TEXT NOT NULL,
    days_ahead     INTEGER NOT NULL CHECK (days_ahead BETWEEN 0 AND 730), -- DAYS_AHEAD_MAX (domain/checks.ts)
    notice_minutes INTEGER NOT NULL CHECK (notice_minutes BETWEEN 0 AND 525600), -- NOTICE_MAX_MINUTES
    step_minutes   INTEGER NOT NULL CHECK (step_minutes BETWEEN 1 AND 1440), -- STEP_MIN_MINUTES, STEP_MAX_MINUTES
    capacity       INTEGER NOT NULL CHECK (capacity BETWEEN 1 AND 1000), -- CAPACITY_MAX
    created_at     TEXT NOT NULL,
    removed_at     TEXT
  ) STRICT;

  CREATE TABLE reasons (
    id               INTEGER PRIMARY KEY,
    schedule_id      INTEGER NOT NULL REFERENCES schedules (id),
    name             TEXT NOT NULL,
    description      TEXT NOT NULL DEFAULT '',
    duration_minutes INTEGER NOT NULL CHECK (duration_minutes BETWEEN 1 AND 1440), -- DURATION_MAX_MINUTES
    position         INTEGER NOT NULL,
    removed_at       TEXT
  ) STRICT;
  CREATE INDEX reasons_by_schedule ON reasons (schedule_id, position);

  -- Weekly opening hours: minutes from local midnight, end may be 1440 (24:00). weekday: 1 = Monday … 7 = Sunday.
  CREATE TABLE opening_hours (
    schedule_id  INTEGER NOT NULL REFERENCES schedules (id),
    weekday      INTEGER NOT NULL CHECK (weekday BETWEEN 1 AND 7),
    start_minute INTEGER NOT NULL CHECK (start_minute BETWEEN 0 AND 1439),
    end_minute   INTEGER NOT NULL CHECK (end_minute BETWEEN 1 AND 1440 AND end_minute > start_minute),
    PRIMARY KEY (schedule_id, weekday, start_minute)
  ) STRICT, WITHOUT ROWID;

  -- Closed local days, inclusive, as YYYY-MM-DD.
  CREATE TABLE closures (
    id          INTEGER PRIMARY KEY,
    schedule_id INTEGER NOT NULL REFERENCES schedules (id),
    from_day    TEXT NOT NULL,
    to_day      TEXT NOT NULL CHECK (to_day >= from_day),
    note        TEXT NOT NULL DEFAULT ''
  ) STRICT;
  CREATE INDEX closures_by_schedule ON closures (schedule_id, from_day);

  CREATE TABLE form_fields (
    id            INTEGER PRIMARY KEY,
    key           TEXT NOT NULL UNIQUE,
    form_type     TEXT NOT NULL CHECK (form_type IN ('textbox', 'textarea', 'checkbox', 'select')),
    input_type    TEXT NOT NULL CHECK (input_type IN ('text', 'email', 'tel', 'number', 'date')),
    label         TEXT NOT NULL,
    required      INTEGER NOT NULL CHECK (required IN (0, 1)),
    default_value TEXT NOT NULL DEFAULT '',
    options       TEXT NOT NULL DEFAULT '[]',
    position      INTEGER NOT NULL
  ) STRICT;

  CREATE TABLE customers (
    id         INTEGER PRIMARY KEY,
    email_key  TEXT UNIQUE,
    email      TEXT,
    first_name TEXT NOT NULL DEFAULT '',
    last_name  TEXT NOT NULL DEFAULT '',
    phone      TEXT NOT NULL DEFAULT '',
    fields     TEXT NOT NULL DEFAULT '{}',
    created_at TEXT NOT NULL
  ) STRICT;

  -- start_at / end_at: UTC instants as Unix seconds; the local time is derived with the installation's zone.
  CREATE TABLE bookings (
    id          INTEGER PRIMARY KEY,
    reference   TEXT NOT NULL UNIQUE,
    schedule_id INTEGER NOT NULL REFERENCES schedules (id),
    reason_id   INTEGER NOT NULL REFERENCES reasons (id),
    customer_id INTEGER NOT NULL REFERENCES customers (id),
    start_at    INTEGER NOT NULL,
    end_at      INTEGER NOT NULL CHECK (end_at > start_at),
    submission  TEXT NOT NULL DEFAULT '{}',
    source      TEXT NOT NULL CHECK (source IN ('api', 'admin')),
    created_at  TEXT NOT NULL
  ) STRICT;
  CREATE INDEX bookings_by_schedule_start ON bookings (schedule_id, start_at);
  CREATE INDEX bookings_by_start ON bookings (start_at);
  `,
  // 2: the e-mail outbox, written in the same transaction as the booking it belongs to.
  `
  CREATE TABLE outbox (
    id              INTEGER PRIMARY KEY,
    booking_id      INTEGER REFERENCES bookings (id),
    kind            TEXT NOT NULL CHECK (kind IN ('confirmation', 'notice')),
    recipient       TEXT NOT NULL,
    subject         TEXT NOT NULL,
    body            TEXT NOT NULL, -- JSON {text, html, ics}: the message exactly as it will be sent
    status          TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL, -- Unix seconds
    lease_until     INTEGER NOT NULL DEFAULT 0, -- a sender holds the message until then
    retry_from      INTEGER NOT NULL, -- start of the current retry period (creation, or \`planner mail retry\`)
    last_error      TEXT,
    created_at      TEXT NOT NULL,
    sent_at         TEXT
  ) STRICT;
  CREATE INDEX outbox_due ON outbox (status, next_attempt_at);
  `,
  // 3: the booking life cycle (cancel, move) and signed webhooks. Bookings are never deleted: a cancelled one
  // keeps its row and stops counting for availability. The outbox learns two more kinds of message (a CHECK
  // cannot be altered in place: the table is rebuilt). Webhook deliveries are an outbox of their own.
  `
  ALTER TABLE bookings ADD COLUMN status TEXT NOT NULL DEFAULT 'booked' CHECK (status IN ('booked', 'cancelled'));
  ALTER TABLE bookings ADD COLUMN sequence INTEGER NOT NULL DEFAULT 0; -- the .ics SEQUENCE: +1 per change
  ALTER TABLE bookings ADD COLUMN changed_at TEXT;
  ALTER TABLE bookings ADD COLUMN cancel_reason TEXT;

  CREATE TABLE outbox_3 (
    id              INTEGER PRIMARY KEY,
    booking_id      INTEGER REFERENCES bookings (id),
    kind            TEXT NOT NULL CHECK (kind IN ('confirmation', 'notice', 'cancellation', 'update')),
    recipient       TEXT NOT NULL,
    subject         TEXT NOT NULL,
    body            TEXT NOT NULL,
    status          TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    lease_until     INTEGER NOT NULL DEFAULT 0,
    retry_from      INTEGER NOT NULL,
    last_error      TEXT,
    created_at      TEXT NOT NULL,
    sent_at         TEXT
  ) STRICT;
  INSERT INTO outbox_3 SELECT * FROM outbox;
  DROP TABLE outbox;
  ALTER TABLE outbox_3 RENAME TO outbox;
  CREATE INDEX outbox_due ON outbox (status, next_attempt_at);

  CREATE TABLE webhooks (
    id               INTEGER PRIMARY KEY,
    url              TEXT NOT NULL,
    secret           TEXT NOT NULL, -- needed in clear to sign; the file is 0600
    events           TEXT NOT NULL, -- comma-separated event types
    include_customer INTEGER NOT NULL DEFAULT 0 CHECK (include_customer IN (0, 1)),
    allow_insecure   INTEGER NOT NULL DEFAULT 0 CHECK (allow_insecure IN (0, 1)),
    created_at       TEXT NOT NULL
  ) STRICT;

  CREATE TABLE webhook_deliveries (
    id              INTEGER PRIMARY KEY,
    webhook_id      INTEGER NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    event_id        TEXT NOT NULL, -- the same for every attempt and every hook: receivers de-duplicate by it
    type            TEXT NOT NULL,
    payload         TEXT NOT NULL, -- the JSON body exactly as it will be sent
    status          TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    lease_until     INTEGER NOT NULL DEFAULT 0,
    retry_from      INTEGER NOT NULL,
    last_error      TEXT,
    created_at      TEXT NOT NULL,
    delivered_at    TEXT
  ) STRICT;
  CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at);
  CREATE INDEX webhook_deliveries_by_hook ON webhook_deliveries (webhook_id, id);
  `,
  // 4: reminders and the customer's self-service page. Reminders are outbox messages with a not-before
  // time (next_attempt_at); a reminder that is not sent because its booking was cancelled or moved, or because its
  // appointment had begun when it came due, is 'dropped' with the reason in last_error. The outbox is rebuilt for
  // the new kind and status, and gains an index by booking (a cancel or move drops that booking's reminders).
  // Existing installations keep reminders off (nothing changes for them on upgrade); new ones get 24 h (1440 minutes,
  // set by planner init). The page's links: one random token per mail sent, stored only as its SHA-256.
  `
  ALTER TABLE settings ADD COLUMN reminder_offsets TEXT NOT NULL DEFAULT ''; -- minutes before the start, comma-separated, largest first; '' = off
  ALTER TABLE settings ADD COLUMN portal_url TEXT; -- the public base URL of the /manage/ pages; NULL = the page is off
  ALTER TABLE settings ADD COLUMN portal_cancel_until INTEGER NOT NULL DEFAULT 24 CHECK (portal_cancel_until BETWEEN 0 AND 8760); -- hours before the start
  ALTER TABLE settings ADD COLUMN portal_reschedule INTEGER NOT NULL DEFAULT 1 CHECK (portal_reschedule IN (0, 1));
  ALTER TABLE settings ADD COLUMN portal_secret TEXT; -- key of the page's form tokens (HMAC-SHA-256), made when first enabled

  CREATE TABLE outbox_4 (
    id              INTEGER PRIMARY KEY,
    booking_id      INTEGER REFERENCES bookings (id),
    kind            TEXT NOT NULL CHECK (kind IN ('confirmation', 'notice', 'cancellation', 'update', 'reminder')),
    recipient       TEXT NOT NULL,
    subject         TEXT NOT NULL,
    body            TEXT NOT NULL,
    status          TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed', 'dropped')),
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL, -- for a reminder: when it is due (not before)
    lease_until     INTEGER NOT NULL DEFAULT 0,
    retry_from      INTEGER NOT NULL,
    last_error      TEXT,
    created_at      TEXT NOT NULL,
    sent_at         TEXT
  ) STRICT;
  INSERT INTO outbox_4 SELECT * FROM outbox;
  DROP TABLE outbox;
  ALTER TABLE outbox_4 RENAME TO outbox;
  CREATE INDEX outbox_due ON outbox (status, next_attempt_at);
  CREATE INDEX outbox_by_booking ON outbox (booking_id, kind, status);

  CREATE TABLE manage_links (
    token_hash TEXT PRIMARY KEY, -- SHA-256 (hex) of the token in the link; the token itself is never stored
    booking_id INTEGER NOT NULL REFERENCES bookings (id),
    created_at TEXT NOT NULL
  ) STRICT, WITHOUT ROWID;
  `,
  // 5: safe retries of POST /bookings, and buffers. Retries: the answer to each Idempotency-Key, kept 24 hours. The 201 is written
  // in the booking's transaction; a 400 or 404 of the booking's checks right after. Expired keys go by created_at.
  `
  CREATE TABLE idempotency_keys (
    key         TEXT PRIMARY KEY,
    fingerprint TEXT NOT NULL, -- SHA-256 (hex) of the request body as sent: a repeat must send the same bytes
    status      INTEGER NOT NULL CHECK (status IN (201, 400, 404)),
    body        TEXT NOT NULL, -- the JSON answer exactly as it was sent
    created_at  INTEGER NOT NULL -- Unix seconds
  ) STRICT, WITHOUT ROWID;
  CREATE INDEX idempotency_keys_by_age ON idempotency_keys (created_at);

  -- Buffers before and after an appointment (issue 16): time a booking keeps from other bookings of its schedule
  -- (capacity counts overlap including them). A booking keeps the buffers its reason had when it was made or moved.
  ALTER TABLE reasons ADD COLUMN buffer_before_minutes INTEGER NOT NULL DEFAULT 0 CHECK (buffer_before_minutes BETWEEN 0 AND 240); -- BUFFER_MAX_MINUTES
  ALTER TABLE reasons ADD COLUMN buffer_after_minutes INTEGER NOT NULL DEFAULT 0 CHECK (buffer_after_minutes BETWEEN 0 AND 240); -- BUFFER_MAX_MINUTES
  ALTER TABLE bookings ADD COLUMN buffer_before INTEGER NOT NULL DEFAULT 0 CHECK (buffer_before BETWEEN 0 AND 14400); -- seconds: BUFFER_MAX_SECONDS
  ALTER TABLE bookings ADD COLUMN buffer_after INTEGER NOT NULL DEFAULT 0 CHECK (buffer_after BETWEEN 0 AND 14400); -- seconds: BUFFER_MAX_SECONDS
  -- Where the time a booking keeps begins: the availability query reads a schedule's bookings in this order (an
  -- index on a virtual column: nothing stored in the rows, no sort per request).
  -- The time a booking blocks, [keeps_from, end_at + buffer_after), is blockedSpan of domain/blocking.ts.
  ALTER TABLE bookings ADD COLUMN keeps_from INTEGER GENERATED ALWAYS AS (start_at - buffer_before) VIRTUAL;
  CREATE INDEX bookings_by_schedule_keeps ON bookings (schedule_id, keeps_from);

  -- The practitioner's calendar feed of a schedule (issue 16): the secret of its URL, stored only as its SHA-256.
  CREATE TABLE feeds (
    schedule_id INTEGER PRIMARY KEY REFERENCES schedules (id),
    secret_hash TEXT NOT NULL UNIQUE,
    created_at  TEXT NOT NULL
  ) STRICT;
  `,
  // 6: what each change of a booking touched, written by triggers whoever writes (the API, the page, the
  // CLI, a second server): a server's cache of free days re-reads only the days a change touched. The log keeps the
  // last 10,000 changes; a reader that fell further behind starts afresh.
  `
  CREATE TABLE booking_changes (
    id          INTEGER PRIMARY KEY AUTOINCREMENT, -- never reused, also after the log was emptied
    schedule_id INTEGER NOT NULL,
    from_at     INTEGER NOT NULL, -- the time the booking kept (buffers included: blockedSpan, domain/blocking.ts), before or after the change
    to_at       INTEGER NOT NULL
  ) STRICT;
  CREATE TRIGGER booking_changes_on_insert AFTER INSERT ON bookings BEGIN
    INSERT INTO booking_changes (schedule_id, from_at, to_at) VALUES (new.schedule_id, new.keeps_from, new.end_at + new.buffer_after);
  END;
  CREATE TRIGGER booking_changes_on_update AFTER UPDATE OF schedule_id, start_at, end_at, buffer_before, buffer_after, status ON bookings BEGIN
    INSERT INTO booking_changes (schedule_id, from_at, to_at) VALUES (old.schedule_id, old.keeps_from, old.end_at + old.buffer_after);
    INSERT INTO booking_changes (schedule_id, from_at, to_at)
      SELECT new.schedule_id, new.keeps_from, new.end_at + new.buffer_after
      WHERE new.schedule_id <> old.schedule_id OR new.keeps_from <> old.keeps_from OR new.end_at + new.buffer_after <> old.end_at + old.buffer_after;
  END;
  CREATE TRIGGER booking_changes_on_delete AFTER DELETE ON bookings BEGIN
    INSERT INTO booking_changes (schedule_id, from_at, to_at) VALUES (old.schedule_id, old.keeps_from, old.end_at + old.buffer_after);
  END;
  -- Pruned in steps: once every 1,024 changes, what lies more than 10,000 back.
  CREATE TRIGGER booking_changes_prune AFTER INSERT ON booking_changes WHEN new.id % 1024 = 0 BEGIN
    DELETE FROM booking_changes WHERE id <= new.id - 10000;
  END;
  `,
  // 7: the customer record groups bookings by e-mail address and holds no copy of what a booking submitted (issue
  // 23): those copies were the first booker's name and phone, which later bookings with the same address (a family)
  // showed instead of their own. Each booking's submission keeps its own values.
  `
  UPDATE customers SET first_name = '', last_name = '', phone = '', fields = '{}'
  WHERE first_name <> '' OR last_name <> '' OR phone <> '' OR fields <> '{}';

  -- The reverse proxies whose X-Forwarded-For is believed (issue 23): comma-separated addresses or CIDR ranges as
  -- checkTrustedProxies (domain/proxies.ts) writes them; '' (the default): none, every client is its peer.
  ALTER TABLE settings ADD COLUMN trusted_proxies TEXT NOT NULL DEFAULT '';

  -- The feed's body as last served (issue 23): its ETag, and since when (ms) it has been served, which is the
  -- feed's Last-Modified. Whatever changes the body (a booking, a reason's name, the window moving on), the date moves.
  ALTER TABLE feeds ADD COLUMN served_etag TEXT;
  ALTER TABLE feeds ADD COLUMN served_since INTEGER;
  `,
  // 8: where the practice is and how customers reach it: shown in every customer mail, as the .ics
  // LOCATION and on the self-service page. '' (the default): not given.
  `
  ALTER TABLE settings ADD COLUMN address TEXT NOT NULL DEFAULT '';
  ALTER TABLE settings ADD COLUMN phone TEXT NOT NULL DEFAULT '';
  ALTER TABLE settings ADD COLUMN website TEXT NOT NULL DEFAULT '';
  `,
  // 9: each change of a booking, who made it and (a move) the time it had before, written in the
  // change's own transaction; `planner bookings show` lists them. What earlier bookings allow is derived: each was
  // created by its source at its creation; a cancelled one was cancelled at its last change, by someone not recorded
  // (actor NULL). Earlier moves left no trace but the booking's sequence.
  `
  CREATE TABLE booking_events (
    id             INTEGER PRIMARY KEY,
    booking_id     INTEGER NOT NULL REFERENCES bookings (id),
    at             TEXT NOT NULL, -- ISO instant of the change
    kind           TEXT NOT NULL CHECK (kind IN ('created', 'moved', 'cancelled')),
    actor          TEXT CHECK (actor IN ('admin', 'customer', 'api')), -- NULL: before planner recorded it
    previous_start INTEGER -- a move: the start it had before (Unix seconds)
  ) STRICT;
  CREATE INDEX booking_events_by_booking ON booking_events (booking_id, id);
  INSERT INTO booking_events (booking_id, at, kind, actor) SELECT id, created_at, 'created', source FROM bookings ORDER BY id;
  INSERT INTO booking_events (booking_id, at, kind, actor)
    SELECT id, changed_at, 'cancelled', NULL FROM bookings WHERE status = 'cancelled' AND changed_at IS NOT NULL ORDER BY id;
  `,
  // 10: the practitioner's own calendars, whose busy times block the whole schedule. A calendar's URL and
  // password are secrets that planner must send, so they cannot be hashed: masked in every output, never logged. A
  // busy time keeps only what blocks: its span, its calendar and a hash of its event's UID (never a title, place or
  // attendee). Spans are cut at most BUSY_PIECE_SECONDS long (store/busy-times.ts), so that a window's busy times
  // are one range of the index. Only the busy times of their calendar's generation count: a sync that changes many
  // writes a new generation in small transactions and switches to it in one short one (store/busy-times.ts). The
  // triggers log each change that counts in booking_changes, so that a server's cache of free days forgets only the
  // days a changed busy time touches (a switch: the days from the first to the last busy time of either generation).
  `
  CREATE TABLE calendars (
    id             INTEGER PRIMARY KEY,
    schedule_id    INTEGER NOT NULL REFERENCES schedules (id),
    label          TEXT NOT NULL,
    kind           TEXT NOT NULL CHECK (kind IN ('ics', 'caldav')),
    url            TEXT NOT NULL, -- a secret (Google's secret address): masked in every output
    user_name      TEXT,
    password       TEXT,          -- a secret: sent to the calendar's server, so kept as given
    every_minutes  INTEGER NOT NULL CHECK (every_minutes BETWEEN 1 AND 1440), -- SYNC_EVERY_MAX_MINUTES
    allow_insecure INTEGER NOT NULL DEFAULT 0 CHECK (allow_insecure IN (0, 1)),
    fetch_state    TEXT NOT NULL DEFAULT '{}', -- ETag, Last-Modified, ctag or sync-token of the last fetch (JSON)
    created_at     TEXT NOT NULL,
    synced_at      INTEGER, -- the last successful sync (Unix seconds)
    tried_at       INTEGER, -- the last attempt, successful or not
    failing_since  INTEGER, -- the first failed attempt since the last success; NULL: not failing
    last_error     TEXT,
    alerted        INTEGER NOT NULL DEFAULT 0 CHECK (alerted IN (0, 1)), -- the practice was mailed that it is failing
    generation     INTEGER NOT NULL DEFAULT 0 -- the busy times that count: those of this generation
  ) STRICT;

  CREATE TABLE busy_times (
    calendar_id INTEGER NOT NULL REFERENCES calendars (id),
    generation  INTEGER NOT NULL, -- counts only while it is its calendar's generation
    schedule_id INTEGER NOT NULL,
    start_at    INTEGER NOT NULL,
    end_at      INTEGER NOT NULL CHECK (end_at > start_at),
    uid_hash    TEXT NOT NULL,
    PRIMARY KEY (calendar_id, generation, start_at, end_at, uid_hash)
  ) STRICT, WITHOUT ROWID;
  CREATE INDEX busy_times_by_schedule ON busy_times (schedule_id, start_at);
  CREATE TRIGGER busy_changes_on_insert AFTER INSERT ON busy_times
    WHEN new.generation = (SELECT generation FROM calendars WHERE id = new.calendar_id) BEGIN
    INSERT INTO booking_changes (schedule_id, from_at, to_at) VALUES (new.schedule_id, new.start_at, new.end_at);
  END;
  CREATE TRIGGER busy_changes_on_delete AFTER DELETE ON busy_times
    WHEN old.generation = (SELECT generation FROM calendars WHERE id = old.calendar_id) BEGIN
    INSERT INTO booking_changes (schedule_id, from_at, to_at) VALUES (old.schedule_id, old.start_at, old.end_at);
  END;
  CREATE TRIGGER busy_changes_on_switch AFTER UPDATE OF generation ON calendars BEGIN
    INSERT INTO booking_changes (schedule_id, from_at, to_at)
      SELECT new.schedule_id, min(start_at), max(end_at) FROM busy_times
      WHERE calendar_id = new.id AND generation IN (old.generation, new.generation) HAVING count(*) > 0;
  END;
  `,
  // 11: the public booking page: NULL while it is off, else its settings as JSON (store/settings.ts
  // BookingPageSettings). Its bookings are the API's (source 'api'), made by the customer (event actor 'customer').
  `
  ALTER TABLE settings ADD COLUMN booking_page TEXT;
  CREATE INDEX bookings_by_customer ON bookings (customer_id, start_at); -- a customer's future bookings, one index step
  `,
  // 12: personal data. A booking's personal data can be erased (its skeleton stays: time, schedule,
  // reason, status); the retention in months after which the server anonymises ended bookings (NULL: off); the
  // audit log, which names bookings by id and reference only. A message of an erased booking that was still waiting
  // when it was erased (the erase's own cancellation) loses its personal data once it is sent or fails.
  `
  ALTER TABLE bookings ADD COLUMN erased_at TEXT;
  ALTER TABLE settings ADD COLUMN retention_months INTEGER;
  CREATE TABLE audit_log (
    id         INTEGER PRIMARY KEY,
    at         TEXT NOT NULL,
    actor      TEXT NOT NULL CHECK (actor IN ('admin', 'api', 'customer', 'server')),
    os_user    TEXT, -- the command's operating-system user (admin), else NULL
    action     TEXT NOT NULL, -- e.g. 'bookings cancel', 'customer export', 'customer erase', 'retention'
    booking_id INTEGER,
    reference  TEXT,
    detail     TEXT NOT NULL DEFAULT '' -- never personal data
  ) STRICT;
  CREATE INDEX audit_log_by_time ON audit_log (at);
  CREATE INDEX bookings_to_anonymise ON bookings (end_at) WHERE erased_at IS NULL; -- the retention's pass, one range
  CREATE TRIGGER outbox_scrub_erased AFTER UPDATE OF status ON outbox
    WHEN new.status != 'pending' AND new.recipient != '[erased]'
      AND (SELECT erased_at FROM bookings WHERE id = new.booking_id) IS NOT NULL BEGIN
    UPDATE outbox SET recipient = '[erased]', subject = '[erased]', body = '{}', last_error = NULL WHERE id = new.id;
  END;
  `,
  // 13: every booking written into the practitioner's own calendar. A calendar that writes bookings
  // (`write_bookings`) gets, for each booking of its schedule that is made or changes (its time, its status, its
  // erasure), one row in the queue `calendar_writes`, written by these triggers in the change's own transaction,
  // whoever makes it (the API, the pages, the CLI, an erase): nothing is acknowledged without its write queued. A
  // booking has at most one row waiting per calendar; a change while one waits raises its `version`, so a worker that
  // wrote the state before knows to write again. The worker makes the calendar's event match the booking as it is
  // when it writes, so changes are written in order and a create followed by a cancel while the calendar was down
  // ends with no event. `calendar_events` holds what planner wrote: where (the resource's path), its ETag (a PUT with
  // If-Match) and its SEQUENCE. And the trigger that scrubbed a message of an erased booking as it ended goes: its
  // scrub is the erase's own now (one scrub).
  `
  ALTER TABLE calendars ADD COLUMN write_bookings INTEGER NOT NULL DEFAULT 0 CHECK (write_bookings IN (0, 1));
  ALTER TABLE calendars ADD COLUMN write_alerted INTEGER NOT NULL DEFAULT 0 CHECK (write_alerted IN (0, 1));
  CREATE TABLE calendar_writes (
    id              INTEGER PRIMARY KEY,
    calendar_id     INTEGER NOT NULL REFERENCES calendars (id) ON DELETE CASCADE,
    booking_id      INTEGER NOT NULL REFERENCES bookings (id),
    version         INTEGER NOT NULL DEFAULT 0, -- raised by every change while the row waits
    status          TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'written', 'failed')),
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL DEFAULT 0, -- 0: due at once
    lease_until     INTEGER NOT NULL DEFAULT 0,
    retry_from      INTEGER NOT NULL DEFAULT 0, -- 0: not tried yet (set by the first claim)
    last_error      TEXT,
    created_at      TEXT NOT NULL,
    written_at      TEXT
  ) STRICT;
  CREATE UNIQUE INDEX calendar_writes_waiting ON calendar_writes (calendar_id, booking_id) WHERE status = 'pending';
  CREATE INDEX calendar_writes_due ON calendar_writes (status, next_attempt_at);
  CREATE TABLE calendar_events (
    calendar_id INTEGER NOT NULL REFERENCES calendars (id) ON DELETE CASCADE,
    booking_id  INTEGER NOT NULL REFERENCES bookings (id),
    href        TEXT NOT NULL,
    etag        TEXT,
    sequence    INTEGER NOT NULL,
    PRIMARY KEY (calendar_id, booking_id)
  ) STRICT, WITHOUT ROWID;
  -- The scrub of a message that ends after its booking was erased is written once, beside the erase's
  -- (scrubIfErased in store/personal-data.ts, in the transaction that marks the message), no longer by a trigger.
  DROP TRIGGER outbox_scrub_erased;
  CREATE TRIGGER calendar_writes_on_insert AFTER INSERT ON bookings BEGIN
    INSERT INTO calendar_writes (calendar_id, booking_id, created_at)
      SELECT id, new.id, strftime('%Y-%m-%dT%H:%M:%fZ') FROM calendars WHERE schedule_id = new.schedule_id AND write_bookings = 1
      ON CONFLICT (calendar_id, booking_id) WHERE status = 'pending' DO UPDATE SET version = version + 1;
  END;
  CREATE TRIGGER calendar_writes_on_update AFTER UPDATE OF start_at, end_at, status, erased_at, sequence ON bookings BEGIN
    INSERT INTO calendar_writes (calendar_id, booking_id, created_at)
      SELECT id, new.id, strftime('%Y-%m-%dT%H:%M:%fZ') FROM calendars WHERE schedule_id = new.schedule_id AND write_bookings = 1
      ON CONFLICT (calendar_id, booking_id) WHERE status = 'pending' DO UPDATE SET version = version + 1;
  END;
  `,
  // 14: French, Italian, Spanish and Dutch. SQLite cannot change a CHECK in place: the settings
  // row moves to a table of the same columns whose locale may be any of LOCALES (domain/locales.ts). Columns named,
  // not *, so that the copy cannot shift a value into another column; nothing refers to this table.
  `
  CREATE TABLE settings_14 (
    id            INTEGER PRIMARY KEY CHECK (id = 1),
    practice_name TEXT,
    time_zone     TEXT,
    locale        TEXT NOT NULL DEFAULT 'en' CHECK (locale IN ('en', 'de', 'fr', 'it', 'es', 'nl')),
    notify_email  TEXT,
    configured_at TEXT,
    api_enabled   INTEGER NOT NULL DEFAULT 0 CHECK (api_enabled IN (0, 1)),
    token_hash    TEXT,
    token_created_at TEXT,
    rate_limit    INTEGER NOT NULL DEFAULT 300 CHECK (rate_limit >= 1), -- DEFAULT_RATE_LIMIT (app/api.ts)
    mail_url      TEXT,
    mail_from     TEXT,
    reminder_offsets TEXT NOT NULL DEFAULT '',
    portal_url    TEXT,
    portal_cancel_until INTEGER NOT NULL DEFAULT 24 CHECK (portal_cancel_until BETWEEN 0 AND 8760),
    portal_reschedule INTEGER NOT NULL DEFAULT 1 CHECK (portal_reschedule IN (0, 1)),
    portal_secret TEXT,
    trusted_proxies TEXT NOT NULL DEFAULT '',
    address       TEXT NOT NULL DEFAULT '',
    phone         TEXT NOT NULL DEFAULT '',
    website       TEXT NOT NULL DEFAULT '',
    booking_page  TEXT,
    retention_months INTEGER
  ) STRICT;
  INSERT INTO settings_14 (id, practice_name, time_zone, locale, notify_email, configured_at, api_enabled, token_hash,
    token_created_at, rate_limit, mail_url, mail_from, reminder_offsets, portal_url, portal_cancel_until,
    portal_reschedule, portal_secret, trusted_proxies, address, phone, website, booking_page, retention_months)
  SELECT id, practice_name, time_zone, locale, notify_email, configured_at, api_enabled, token_hash,
    token_created_at, rate_limit, mail_url, mail_from, reminder_offsets, portal_url, portal_cancel_until,
    portal_reschedule, portal_secret, trusted_proxies, address, phone, website, booking_page, retention_months
  FROM settings;
  DROP TABLE settings;
  ALTER TABLE settings_14 RENAME TO settings;
  `,
  // 15: a booking made on the booking page is recorded as the page's: source 'page' beside 'api' and
  // 'admin'. A CHECK cannot be altered in place, and bookings is the parent of many tables: it is rebuilt with foreign
  // keys off and checked before the upgrade commits (`migrate` in store/db.ts), columns in their order, its indexes
  // and triggers made again as migrations 1, 5, 6, 11, 12 and 13 made them. The page's earlier bookings (recorded
  // as 'api') are known by their history: the page, alone, creates a booking with the actor 'customer'.
  `
  CREATE TABLE bookings_15 (
    id            INTEGER PRIMARY KEY,
    reference     TEXT NOT NULL UNIQUE,
    schedule_id   INTEGER NOT NULL REFERENCES schedules (id),
    reason_id     INTEGER NOT NULL REFERENCES reasons (id),
    customer_id   INTEGER NOT NULL REFERENCES customers (id),
    start_at      INTEGER NOT NULL,
    end_at        INTEGER NOT NULL CHECK (end_at > start_at),
    submission    TEXT NOT NULL DEFAULT '{}',
    source        TEXT NOT NULL CHECK (source IN ('api', 'admin', 'page')), -- BookingSource (store/bookings.ts)
    created_at    TEXT NOT NULL,
    status        TEXT NOT NULL DEFAULT 'booked' CHECK (status IN ('booked', 'cancelled')),
    sequence      INTEGER NOT NULL DEFAULT 0,
    changed_at    TEXT,
    cancel_reason TEXT,
    buffer_before INTEGER NOT NULL DEFAULT 0 CHECK (buffer_before BETWEEN 0 AND 14400), -- seconds: BUFFER_MAX_SECONDS
    buffer_after  INTEGER NOT NULL DEFAULT 0 CHECK (buffer_after BETWEEN 0 AND 14400), -- seconds: BUFFER_MAX_SECONDS
    keeps_from    INTEGER GENERATED ALWAYS AS (start_at - buffer_before) VIRTUAL,
    erased_at     TEXT
  ) STRICT;
  INSERT INTO bookings_15 (id, reference, schedule_id, reason_id, customer_id, start_at, end_at, submission, source,
      created_at, status, sequence, changed_at, cancel_reason, buffer_before, buffer_after, erased_at)
    SELECT id, reference, schedule_id, reason_id, customer_id, start_at, end_at, submission,
      CASE WHEN source = 'api' AND EXISTS (SELECT 1 FROM booking_events e
        WHERE e.booking_id = bookings.id AND e.kind = 'created' AND e.actor = 'customer') THEN 'page' ELSE source END,
      created_at, status, sequence, changed_at, cancel_reason, buffer_before, buffer_after, erased_at
    FROM bookings ORDER BY id;
  DROP TABLE bookings;
  ALTER TABLE bookings_15 RENAME TO bookings;
  CREATE INDEX bookings_by_schedule_start ON bookings (schedule_id, start_at);
  CREATE INDEX bookings_by_start ON bookings (start_at);
  CREATE INDEX bookings_by_schedule_keeps ON bookings (schedule_id, keeps_from);
  CREATE INDEX bookings_by_customer ON bookings (customer_id, start_at);
  CREATE INDEX bookings_to_anonymise ON bookings (end_at) WHERE erased_at IS NULL;
  CREATE TRIGGER booking_changes_on_insert AFTER INSERT ON bookings BEGIN
    INSERT INTO booking_changes (schedule_id, from_at, to_at) VALUES (new.schedule_id, new.keeps_from, new.end_at + new.buffer_after);
  END;
  CREATE TRIGGER booking_changes_on_update AFTER UPDATE OF schedule_id, start_at, end_at, buffer_before, buffer_after, status ON bookings BEGIN
    INSERT INTO booking_changes (schedule_id, from_at, to_at) VALUES (old.schedule_id, old.keeps_from, old.end_at + old.buffer_after);
    INSERT INTO booking_changes (schedule_id, from_at, to_at)
      SELECT new.schedule_id, new.keeps_from, new.end_at + new.buffer_after
      WHERE new.schedule_id <> old.schedule_id OR new.keeps_from <> old.keeps_from OR new.end_at + new.buffer_after <> old.end_at + old.buffer_after;
  END;
  CREATE TRIGGER booking_changes_on_delete AFTER DELETE ON bookings BEGIN
    INSERT INTO booking_changes (schedule_id, from_at, to_at) VALUES (old.schedule_id, old.keeps_from, old.end_at + old.buffer_after);
  END;
  CREATE TRIGGER calendar_writes_on_insert AFTER INSERT ON bookings BEGIN
    INSERT INTO calendar_writes (calendar_id, booking_id, created_at)
      SELECT id, new.id, strftime('%Y-%m-%dT%H:%M:%fZ') FROM calendars WHERE schedule_id = new.schedule_id AND write_bookings = 1
      ON CONFLICT (calendar_id, booking_id) WHERE status = 'pending' DO UPDATE SET version = version + 1;
  END;
  CREATE TRIGGER calendar_writes_on_update AFTER UPDATE OF start_at, end_at, status, erased_at, sequence ON bookings BEGIN
    INSERT INTO calendar_writes (calendar_id, booking_id, created_at)
      SELECT id, new.id, strftime('%Y-%m-%dT%H:%M:%fZ') FROM calendars WHERE schedule_id = new.schedule_id AND write_bookings = 1
      ON CONFLICT (calendar_id, booking_id) WHERE status = 'pending' DO UPDATE SET version = version + 1;
  END;
  `,
  // 16: the booking page's logo (`booking-page enable --logo`), at most 100 KiB, served at /book/logo.
  `
  CREATE TABLE booking_logo (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    type    TEXT NOT NULL CHECK (type IN ('image/png', 'image/jpeg', 'image/webp')),
    bytes   BLOB NOT NULL CHECK (length(bytes) <= 102400),
    version TEXT NOT NULL
  ) STRICT;
  `,
  // 17: a course of treatment, a practice of several, a Saturday clinic.
  // - A series groups bookings made at one go (`bookings add --repeat`): each occurrence stays a booking of its own.
  // - A reason may be offered by several schedules (reason_schedules, every reason's own schedule copied in);
  //   reasons.schedule_id stays the schedule it was made for (its first). series_max: weekly occurrences the booking
  //   page offers for it (0: none).
  // - Extra hours open one local date of a schedule beyond its weekly hours (closures still win).
  // - A booking moved to another practitioner offering its reason is written out of the old one's calendars.
  `
  CREATE TABLE series (
    id            INTEGER PRIMARY KEY,
    reference     TEXT NOT NULL UNIQUE,
    interval_days INTEGER NOT NULL CHECK (interval_days BETWEEN 1 AND 364),
    created_at    TEXT NOT NULL
  ) STRICT;
  ALTER TABLE bookings ADD COLUMN series_id INTEGER REFERENCES series (id);
  CREATE INDEX bookings_by_series ON bookings (series_id, start_at) WHERE series_id IS NOT NULL;
  CREATE TABLE reason_schedules (
    reason_id   INTEGER NOT NULL REFERENCES reasons (id),
    schedule_id INTEGER NOT NULL REFERENCES schedules (id),
    PRIMARY KEY (reason_id, schedule_id)
  ) STRICT, WITHOUT ROWID;
  INSERT INTO reason_schedules (reason_id, schedule_id) SELECT id, schedule_id FROM reasons;
  CREATE INDEX reason_schedules_by_schedule ON reason_schedules (schedule_id, reason_id);
  ALTER TABLE reasons ADD COLUMN series_max INTEGER NOT NULL DEFAULT 0 CHECK (series_max BETWEEN 0 AND 52);
  -- A move may change the practitioner where the reason is shared: the calendars of the old schedule hear of it too
  -- (their writer deletes the event of a booking no longer theirs, src/app/calendar-writes.ts).
  DROP TRIGGER calendar_writes_on_update;
  CREATE TRIGGER calendar_writes_on_update AFTER UPDATE OF schedule_id, start_at, end_at, status, erased_at, sequence ON bookings BEGIN
    INSERT INTO calendar_writes (calendar_id, booking_id, created_at)
      SELECT id, new.id, strftime('%Y-%m-%dT%H:%M:%fZ') FROM calendars
      WHERE schedule_id IN (new.schedule_id, old.schedule_id) AND write_bookings = 1
      ON CONFLICT (calendar_id, booking_id) WHERE status = 'pending' DO UPDATE SET version = version + 1;
  END;
  CREATE TABLE extra_hours (
    schedule_id  INTEGER NOT NULL REFERENCES schedules (id),
    day          TEXT NOT NULL CHECK (day GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
    start_minute INTEGER NOT NULL CHECK (start_minute BETWEEN 0 AND 1439),
    end_minute   INTEGER NOT NULL CHECK (end_minute BETWEEN 1 AND 1440 AND end_minute > start_minute),
    PRIMARY KEY (schedule_id, day, start_minute)
  ) STRICT;
  `,
  // 18: a practitioner's calendar, written, stands on its own.
  // - `details`: what each written event tells of the customer: `full` (every answer of the form, as before: the
  //   calendars written so far keep it) or `minimal` (the reason, the first name and the reference: a new calendar's
  //   default, app/calendars/calendars.ts).
  // - `write_last_ok`: whether the last write into it succeeded (NULL: none yet), so that a calendar whose old writes
  //   are being retried after an outage shows as catching up, not as failing.
  // - What planner wrote (`calendar_events`) learns when (`written_at`, Unix milliseconds: a read that began in the
  //   same second as a write must tell which came first), and what the calendar's read showed instead
  //   (`edit`, JSON: moved to another time, or removed, in a calendar app), since when, and whether the practice was
  //   mailed about it (once).
  `
  ALTER TABLE calendars ADD COLUMN details TEXT NOT NULL DEFAULT 'full' CHECK (details IN ('full', 'minimal'));
  ALTER TABLE calendars ADD COLUMN write_last_ok INTEGER CHECK (write_last_ok IN (0, 1));
  ALTER TABLE calendar_events ADD COLUMN written_at INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE calendar_events ADD COLUMN edit TEXT;
  ALTER TABLE calendar_events ADD COLUMN edit_seen_at INTEGER;
  ALTER TABLE calendar_events ADD COLUMN edit_mailed INTEGER NOT NULL DEFAULT 0 CHECK (edit_mailed IN (0, 1));
  `, // 19: the front desk: staff who log in with a password and a second factor, and their sessions.
  // - `desk_url`: the public base of /desk/ (NULL: the desk is off); sessions end after `desk_idle_minutes` without a
  //   request and `desk_max_minutes` after login.
  // - `staff`: a person at the desk, by e-mail address (ASCII lower case). Until they enrol, no password nor second
  //   factor: only an enrolment link (`staff_enrolments`, its token's SHA-256, 24 hours, once). `password_hash` is
  //   Argon2id's PHC string; `totp_secret` the TOTP key (RFC 6238), `totp_last_step` the step of the last code
  //   accepted (a code is never accepted twice). `failures`, `locked_until` (Unix seconds) and `lockouts`: the
  //   account's lockout. `removed_at`: a removed person keeps their row, so the history still names who did what.
  // - `staff_schedules`: a practitioner's schedules. `staff_recovery_codes`: ten per enrolment, their SHA-256, each
  //   used once. `staff_sessions`: the SHA-256 of a session's identifier (the cookie holds the identifier), its
  //   form token, whether its second factor was confirmed (`verified` 0: a password given, a code awaited, for
  //   minutes), and when it began and was last seen.
  `
  ALTER TABLE settings ADD COLUMN desk_url TEXT;
  ALTER TABLE settings ADD COLUMN desk_idle_minutes INTEGER NOT NULL DEFAULT 60 CHECK (desk_idle_minutes BETWEEN 5 AND 1440);
  ALTER TABLE settings ADD COLUMN desk_max_minutes INTEGER NOT NULL DEFAULT 720 CHECK (desk_max_minutes BETWEEN 5 AND 10080);
  CREATE TABLE staff (
    id             INTEGER PRIMARY KEY,
    email          TEXT NOT NULL UNIQUE,
    name           TEXT NOT NULL,
    role           TEXT NOT NULL CHECK (role IN ('admin', 'reception', 'practitioner')),
    password_hash  TEXT,
    totp_secret    BLOB,
    totp_last_step INTEGER,
    enrolled_at    TEXT,
    failures       INTEGER NOT NULL DEFAULT 0,
    locked_until   INTEGER,
    lockouts       INTEGER NOT NULL DEFAULT 0,
    created_at     TEXT NOT NULL,
    removed_at     TEXT
  ) STRICT;
  CREATE TABLE staff_schedules (
    staff_id    INTEGER NOT NULL REFERENCES staff (id),
    schedule_id INTEGER NOT NULL REFERENCES schedules (id),
    PRIMARY KEY (staff_id, schedule_id)
  ) STRICT, WITHOUT ROWID;
  CREATE TABLE staff_enrolments (
    token_hash TEXT PRIMARY KEY,
    staff_id   INTEGER NOT NULL REFERENCES staff (id),
    expires_at INTEGER NOT NULL,
    used_at    INTEGER
  ) STRICT, WITHOUT ROWID;
  CREATE INDEX staff_enrolments_by_staff ON staff_enrolments (staff_id);
  CREATE TABLE staff_recovery_codes (
    staff_id  INTEGER NOT NULL REFERENCES staff (id),
    code_hash TEXT NOT NULL,
    used_at   INTEGER,
    PRIMARY KEY (staff_id, code_hash)
  ) STRICT, WITHOUT ROWID;
  CREATE TABLE staff_sessions (
    id_hash    TEXT PRIMARY KEY,
    staff_id   INTEGER NOT NULL REFERENCES staff (id),
    form_token TEXT NOT NULL,
    verified   INTEGER NOT NULL DEFAULT 0 CHECK (verified IN (0, 1)),
    created_at INTEGER NOT NULL,
    seen_at    INTEGER NOT NULL
  ) STRICT, WITHOUT ROWID;
  CREATE INDEX staff_sessions_by_staff ON staff_sessions (staff_id);
  -- The desk's bookings and changes (a rebuild of bookings, booking_events and audit_log: SQLite cannot widen a CHECK):
  -- - bookings: source 'desk' (made at the front desk); attendance (NULL, 'arrived' or 'no_show', set at the
  --   desk); staff_note, the staff's private note ('' for none: never in a mail, webhook, feed or calendar);
  --   searched: whether its folded forms are in booking_search (1), erased (0), or not (NULL: a row another program
  --   wrote, folded when searched; bookings_unsearched finds them, usually none).
  -- - booking_search: the customer search's index (FTS5 trigrams: any part of a name, reference, phone or address
  --   found through the index, 50,000 bookings in a millisecond), one row per booking not erased, by its id; an
  --   erase deletes the row and merges the index, so no trigram of the name stays in it.
  -- - booking_events: the desk's kinds (attendance marked or undone, the note changed, the confirmation sent again)
  --   and actor 'staff' with the person (staff_id; staff rows are never deleted, so the history keeps the name).
  -- - audit_log: actor 'staff', with the person.
  CREATE TABLE bookings_19 (
    id            INTEGER PRIMARY KEY,
    reference     TEXT NOT NULL UNIQUE,
    schedule_id   INTEGER NOT NULL REFERENCES schedules (id),
    reason_id     INTEGER NOT NULL REFERENCES reasons (id),
    customer_id   INTEGER NOT NULL REFERENCES customers (id),
    start_at      INTEGER NOT NULL,
    end_at        INTEGER NOT NULL CHECK (end_at > start_at),
    submission    TEXT NOT NULL DEFAULT '{}',
    source        TEXT NOT NULL CHECK (source IN ('api', 'admin', 'page', 'desk')), -- BookingSource (store/bookings.ts)
    created_at    TEXT NOT NULL,
    status        TEXT NOT NULL DEFAULT 'booked' CHECK (status IN ('booked', 'cancelled')),
    sequence      INTEGER NOT NULL DEFAULT 0,
    changed_at    TEXT,
    cancel_reason TEXT,
    buffer_before INTEGER NOT NULL DEFAULT 0 CHECK (buffer_before BETWEEN 0 AND 14400), -- seconds: BUFFER_MAX_SECONDS
    buffer_after  INTEGER NOT NULL DEFAULT 0 CHECK (buffer_after BETWEEN 0 AND 14400), -- seconds: BUFFER_MAX_SECONDS
    keeps_from    INTEGER GENERATED ALWAYS AS (start_at - buffer_before) VIRTUAL,
    erased_at     TEXT,
    series_id     INTEGER REFERENCES series (id),
    attendance    TEXT CHECK (attendance IN ('arrived', 'no_show')),
    staff_note    TEXT NOT NULL DEFAULT '',
    searched      INTEGER CHECK (searched IN (0, 1)) -- 1: in booking_search; 0: erased; NULL: folded when searched
  ) STRICT;
  INSERT INTO bookings_19 (id, reference, schedule_id, reason_id, customer_id, start_at, end_at, submission, source,
      created_at, status, sequence, changed_at, cancel_reason, buffer_before, buffer_after, erased_at, series_id)
    SELECT id, reference, schedule_id, reason_id, customer_id, start_at, end_at, submission, source,
      created_at, status, sequence, changed_at, cancel_reason, buffer_before, buffer_after, erased_at, series_id
    FROM bookings ORDER BY id;
  DROP TABLE bookings;
  ALTER TABLE bookings_19 RENAME TO bookings;
  CREATE INDEX bookings_unsearched ON bookings (id) WHERE searched IS NULL;
  CREATE VIRTUAL TABLE booking_search USING fts5 (name, other, digits, email, tokenize = 'trigram', detail = 'none');
  ${FILL_SEARCH_KEYS}
  CREATE INDEX bookings_by_schedule_start ON bookings (schedule_id, start_at);
  CREATE INDEX bookings_by_start ON bookings (start_at);
  CREATE INDEX bookings_by_schedule_keeps ON bookings (schedule_id, keeps_from);
  CREATE INDEX bookings_by_customer ON bookings (customer_id, start_at);
  CREATE INDEX bookings_to_anonymise ON bookings (end_at) WHERE erased_at IS NULL;
  CREATE INDEX bookings_by_series ON bookings (series_id, start_at) WHERE series_id IS NOT NULL;
  CREATE TRIGGER booking_changes_on_insert AFTER INSERT ON bookings BEGIN
    INSERT INTO booking_changes (schedule_id, from_at, to_at) VALUES (new.schedule_id, new.keeps_from, new.end_at + new.buffer_after);
  END;
  CREATE TRIGGER booking_changes_on_update AFTER UPDATE OF schedule_id, start_at, end_at, buffer_before, buffer_after, status ON bookings BEGIN
    INSERT INTO booking_changes (schedule_id, from_at, to_at) VALUES (old.schedule_id, old.keeps_from, old.end_at + old.buffer_after);
    INSERT INTO booking_changes (schedule_id, from_at, to_at)
      SELECT new.schedule_id, new.keeps_from, new.end_at + new.buffer_after
      WHERE new.schedule_id <> old.schedule_id OR new.keeps_from <> old.keeps_from OR new.end_at + new.buffer_after <> old.end_at + old.buffer_after;
  END;
  CREATE TRIGGER booking_changes_on_delete AFTER DELETE ON bookings BEGIN
    INSERT INTO booking_changes (schedule_id, from_at, to_at) VALUES (old.schedule_id, old.keeps_from, old.end_at + old.buffer_after);
  END;
  CREATE TRIGGER calendar_writes_on_insert AFTER INSERT ON bookings BEGIN
    INSERT INTO calendar_writes (calendar_id, booking_id, created_at)
      SELECT id, new.id, strftime('%Y-%m-%dT%H:%M:%fZ') FROM calendars WHERE schedule_id = new.schedule_id AND write_bookings = 1
      ON CONFLICT (calendar_id, booking_id) WHERE status = 'pending' DO UPDATE SET version = version + 1;
  END;
  CREATE TRIGGER calendar_writes_on_update AFTER UPDATE OF schedule_id, start_at, end_at, status, erased_at, sequence ON bookings BEGIN
    INSERT INTO calendar_writes (calendar_id, booking_id, created_at)
      SELECT id, new.id, strftime('%Y-%m-%dT%H:%M:%fZ') FROM calendars
      WHERE schedule_id IN (new.schedule_id, old.schedule_id) AND write_bookings = 1
      ON CONFLICT (calendar_id, booking_id) WHERE status = 'pending' DO UPDATE SET version = version + 1;
  END;
  CREATE TABLE booking_events_19 (
    id             INTEGER PRIMARY KEY,
    booking_id     INTEGER NOT NULL REFERENCES bookings (id),
    at             TEXT NOT NULL, -- ISO instant of the change
    kind           TEXT NOT NULL CHECK (kind IN ('created', 'moved', 'cancelled', 'arrived', 'no_show', 'attendance_undone', 'noted', 'confirmation_sent')),
    actor          TEXT CHECK (actor IN ('admin', 'customer', 'api', 'staff')), -- NULL: before planner recorded it
    previous_start INTEGER, -- a move: the start it had before (Unix seconds)
    staff_id       INTEGER REFERENCES staff (id) CHECK ((staff_id IS NOT NULL) = (actor IS 'staff'))
  ) STRICT;
  INSERT INTO booking_events_19 (id, booking_id, at, kind, actor, previous_start)
    SELECT id, booking_id, at, kind, actor, previous_start FROM booking_events ORDER BY id;
  DROP TABLE booking_events;
  ALTER TABLE booking_events_19 RENAME TO booking_events;
  CREATE INDEX booking_events_by_booking ON booking_events (booking_id, id);
  CREATE TABLE audit_log_19 (
    id         INTEGER PRIMARY KEY,
    at         TEXT NOT NULL,
    actor      TEXT NOT NULL CHECK (actor IN ('admin', 'api', 'customer', 'server', 'staff')),
    os_user    TEXT, -- the command's operating-system user (admin), else NULL
    action     TEXT NOT NULL, -- e.g. 'bookings cancel', 'customer export', 'customer erase', 'retention'
    booking_id INTEGER,
    reference  TEXT,
    detail     TEXT NOT NULL DEFAULT '', -- never personal data
    staff_id   INTEGER REFERENCES staff (id) CHECK ((staff_id IS NOT NULL) = (actor = 'staff'))
  ) STRICT;
  INSERT INTO audit_log_19 (id, at, actor, os_user, action, booking_id, reference, detail)
    SELECT id, at, actor, os_user, action, booking_id, reference, detail FROM audit_log ORDER BY id;
  DROP TABLE audit_log;
  ALTER TABLE audit_log_19 RENAME TO audit_log;
  CREATE INDEX audit_log_by_time ON audit_log (at);
  `,
  // 20: customers in their own language (issue 47). The languages the practice offers besides its own (`locale`),
  // comma-separated in the order `practice set --languages` gave them; the language each booking's customer chose
  // (NULL: the practice's own, as every booking made before spoke it); and the practice's texts per language: a
  // field's label, a reason's name and description, each a JSON object from locale to text ('{}': none given), and
  // a select field's choices as shown (locale to a list as long as `options`, whose values are what is submitted).
  `
  ALTER TABLE settings ADD COLUMN languages TEXT NOT NULL DEFAULT '';
  ALTER TABLE bookings ADD COLUMN locale TEXT CHECK (locale IN ('en', 'de', 'fr', 'it', 'es', 'nl'));
  ALTER TABLE form_fields ADD COLUMN labels TEXT NOT NULL DEFAULT '{}';
  ALTER TABLE form_fields ADD COLUMN choices TEXT NOT NULL DEFAULT '{}';
  ALTER TABLE reasons ADD COLUMN names TEXT NOT NULL DEFAULT '{}';
  ALTER TABLE reasons ADD COLUMN descriptions TEXT NOT NULL DEFAULT '{}';
  `,
  // 21: the practitioner's Google or Microsoft calendar (issue 48), read and written through the provider's API.
  // SQLite cannot change a CHECK in place: `calendars` is made again with the two kinds, as it was (its trigger
  // too). For these kinds `url` is the calendar's API address and `password` the account's secret as JSON (a key
  // file's key, or a refresh token: calendar/provider.ts ProviderSecret), masked as a password is; `user_name` names
  // the account. `reconnect`: why the account's consent is gone (a token revoked or expired, the calendar unshared),
  // NULL while it is not; set by the read or write that found it, cleared by `calendar reconnect`. And
  // `calendar_consents`: the Google OAuth web flows under way, each until its code came back to planner's public
  // address (`/oauth/google`), by the SHA-256 of the `state` planner gave Google; the command that started it reads
  // the code and deletes the row.
  `
  CREATE TABLE calendars_21 (
    id             INTEGER PRIMARY KEY,
    schedule_id    INTEGER NOT NULL REFERENCES schedules (id),
    label          TEXT NOT NULL,
    kind           TEXT NOT NULL CHECK (kind IN ('ics', 'caldav', 'google', 'microsoft')),
    url            TEXT NOT NULL, -- a secret (Google's secret address): masked in every output
    user_name      TEXT,
    password       TEXT,          -- a secret: sent to the calendar's server, so kept as given
    every_minutes  INTEGER NOT NULL CHECK (every_minutes BETWEEN 1 AND 1440), -- SYNC_EVERY_MAX_MINUTES
    allow_insecure INTEGER NOT NULL DEFAULT 0 CHECK (allow_insecure IN (0, 1)),
    fetch_state    TEXT NOT NULL DEFAULT '{}', -- what the last read remembers (JSON)
    created_at     TEXT NOT NULL,
    synced_at      INTEGER, -- the last successful sync (Unix seconds)
    tried_at       INTEGER, -- the last attempt, successful or not
    failing_since  INTEGER, -- the first failed attempt since the last success; NULL: not failing
    last_error     TEXT,
    alerted        INTEGER NOT NULL DEFAULT 0 CHECK (alerted IN (0, 1)), -- the practice was mailed that it is failing
    generation     INTEGER NOT NULL DEFAULT 0, -- the busy times that count: those of this generation
    write_bookings INTEGER NOT NULL DEFAULT 0 CHECK (write_bookings IN (0, 1)),
    write_alerted  INTEGER NOT NULL DEFAULT 0 CHECK (write_alerted IN (0, 1)),
    details        TEXT NOT NULL DEFAULT 'full' CHECK (details IN ('full', 'minimal')),
    write_last_ok  INTEGER CHECK (write_last_ok IN (0, 1)),
    reconnect      TEXT -- why the account needs reconnecting; NULL: it does not
  ) STRICT;
  INSERT INTO calendars_21 (id, schedule_id, label, kind, url, user_name, password, every_minutes, allow_insecure,
    fetch_state, created_at, synced_at, tried_at, failing_since, last_error, alerted, generation, write_bookings,
    write_alerted, details, write_last_ok)
    SELECT id, schedule_id, label, kind, url, user_name, password, every_minutes, allow_insecure, fetch_state,
      created_at, synced_at, tried_at, failing_since, last_error, alerted, generation, write_bookings, write_alerted,
      details, write_last_ok FROM calendars ORDER BY id;
  DROP TABLE calendars;
  -- The triggers of busy_times and bookings name calendars: a rename that checks them (the default) refuses while no
  -- calendars table exists; the legacy rename leaves them as they are, naming the table it becomes.
  PRAGMA legacy_alter_table = ON;
  ALTER TABLE calendars_21 RENAME TO calendars;
  PRAGMA legacy_alter_table = OFF;
  CREATE TRIGGER busy_changes_on_switch AFTER UPDATE OF generation ON calendars BEGIN
    INSERT INTO booking_changes (schedule_id, from_at, to_at)
      SELECT new.schedule_id, min(start_at), max(end_at) FROM busy_times
      WHERE calendar_id = new.id AND generation IN (old.generation, new.generation) HAVING count(*) > 0;
  END;
  CREATE TABLE calendar_consents (
    state_hash   TEXT PRIMARY KEY,
    created_at   INTEGER NOT NULL, -- Unix seconds; a consent not back within CONSENT_SECONDS is no longer taken
    code         TEXT,             -- a secret: the authorization code Google sent back (used once, at once)
    error        TEXT              -- Google's error instead (access_denied: the user said no)
  ) STRICT;
  `,
  // 22: the erase pass asks when a booking was last erased (store/personal-data.ts lastErasedAt), at every start and
  // hourly; without an index that read every page of bookings (187 of a 2.8 MB file, 0.8 MiB of the idle server's
  // page cache, issue 49). Only erased bookings are in it.
  `
  CREATE INDEX bookings_by_erasure ON bookings (erased_at) WHERE erased_at IS NOT NULL;
  `,
];

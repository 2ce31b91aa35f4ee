/**
 * The table `npm run bench` prints and writes into docs/performance.md: a row per figure, in the order a reader
 * takes them, each beside its floor and target, made from the results of bench/run.ts (bench/latest.json).
 */

/** Returns the table of `results` in Markdown. */
/** Row 12's runs right after the 50 started (issue 49), and how they started. */
const COLD_RUNS = {
  before: ', right after all started, before issue 49 (the executable given by --before, the same run)',
  cold: ', right after all started for the first time (no compile cache yet, as after an upgrade)',
  reboot: ', right after all started again (each with its compile cache, as after a reboot)',
};

export function benchTable(results: Record<string, any>): string {
  const r = results as any;
  const f1 = (value: number) => value.toFixed(1);
  const f2 = (value: number) => value.toFixed(2);
  /** Says whether a figure meets its target, in the table's words. */
  const verdict = (met: boolean) => (met ? 'met' : '**not met**');
  const sea = r.executableMiB;
  const rows: string[][] = [
    [
      '1. GET /schedules',
      `${Math.round(r.schedules.subject.rps)} req/s, p50 ${r.schedules.subject.p50} ms, p99 ${r.schedules.subject.p99} ms (median of 5 rounds, each beside the floor; the medians' ratio ${f2(r.schedules.ratioOfMedians)})`,
      `bare node:http ${Math.round(r.schedules.floor.rps)} req/s, p50 ${r.schedules.floor.p50} ms, p99 ${r.schedules.floor.p99} ms`,
      f2(r.schedules.ratio),
      r.schedules.target,
      verdict(r.schedules.ratio >= 0.6),
    ],
    [
      '1o. GET /schedules with `--log off`',
      `${Math.round(r.schedules.logOff.rps)} req/s beside ${Math.round(r.schedules.logOn.rps)} req/s with the log on (the log costs ${Math.round((1 - r.schedules.logRatio) * 100)} %); ${f2(r.schedules.logOffRatio)} of bare node:http`,
      'the default server, log on (1.)',
      f2(r.schedules.logRatio),
      'log on >= 0.9 of log off',
      verdict(r.schedules.logRatio >= 0.9),
    ],
    [
      '1h. an h3 route answering the same bytes (no planner code)',
      `${Math.round(r.schedules.h3Hello.rps)} req/s`,
      `bare node:http (1.)`,
      f2(r.schedules.h3Hello.ratio),
      '',
      '',
    ],
    [
      '1p. GET /schedules, pipelined 10 (no client calls so)',
      `${Math.round(r.schedules.pipelined.subject.rps)} req/s`,
      `bare node:http ${Math.round(r.schedules.pipelined.floor.rps)} req/s, pipelined 10`,
      f2(r.schedules.pipelined.ratio),
      '',
      '',
    ],
    [
      '2. GET /days (365 d)',
      `${f2(r.days.serverMs)} ms server time (first answer ${f2(r.days.firstMs)} ms, right after a booking ${f2(r.days.afterBookingMs)} ms); ${Math.round(r.days.load.rps)} req/s (${f2(r.days.load.rps / r.schedules.floor.rps)} of bare node:http), p99 ${r.days.load.p99} ms`,
      `${f2(r.days.floorMs)} ms to read the window's ${r.days.windowRows} bookings`,
      f2(r.days.ratio),
      `${r.days.target} (also after a booking)`,
      verdict(r.days.serverMs <= 1 && r.days.afterBookingMs <= 1),
    ],
    [
      '3. GET /slots (busiest day)',
      `${f2(r.slots.serverMs)} ms server time; ${Math.round(r.slots.load.rps)} req/s, p99 ${r.slots.load.p99} ms`,
      'bare node:http (1.)',
      f2(r.slots.load.rps / r.schedules.floor.rps),
      '',
      '',
    ],
    [
      '3. GET /forms',
      `${f2(r.forms.serverMs)} ms server time; ${Math.round(r.forms.load.rps)} req/s, p99 ${r.forms.load.p99} ms`,
      'bare node:http (1.)',
      f2(r.forms.load.rps / r.schedules.floor.rps),
      '',
      '',
    ],
    [
      '3b. Calendar feed (schedule 2)',
      `${r.feed.events} events, ${Math.round(r.feed.bytes / 1024)} KiB in ${f2(r.feed.ms)} ms (whole answer)`,
      '',
      '',
      r.feed.target,
      verdict(r.feed.events >= 5000 && r.feed.ms <= 250),
    ],
    [
      '4. POST /bookings',
      `${Math.round(r.bookings.bookingsPerSecond)} bookings/s, ${r.bookings.posted.non2xx + r.bookings.posted.errors} errors of ${r.bookings.posted.total}`,
      `${Math.round(r.bookings.floorPerSecond)} direct inserts/s (same rows, same pragmas)`,
      f2(r.bookings.ratio),
      r.bookings.target,
      verdict(r.bookings.ratio >= 0.3 && r.bookings.posted.non2xx + r.bookings.posted.errors === 0),
    ],
    [
      '13. POST /series, 10 weekly dates (issue 40)',
      `${f2(r.series.seriesMs)} ms server time (${f2(r.series.perDateMs)} ms a date), median of ${r.series.series} series on a practice of 10 a tenth full`,
      `POST /bookings of one date, same file and schedule: ${f2(r.series.singleMs)} ms`,
      f2(r.series.seriesMs / r.series.singleMs),
      r.series.target,
      verdict(r.series.seriesMs <= 10 * r.series.singleMs),
    ],
    [
      '13a. `slots any` over 10 schedules (issue 40)',
      `${f1(r.slotsAny.cliMs)} ms for 30 days (the command, wall time); GET /slots/any of a day ${f2(r.slotsAny.serverMs)} ms server time`,
      `one schedule: ${f1(r.slotsAny.oneScheduleCliMs)} ms (the command); GET /slots ${f2(r.slotsAny.oneScheduleServerMs)} ms`,
      f2(r.slotsAny.serverMs / r.slotsAny.oneScheduleServerMs),
      r.slotsAny.target,
      verdict(r.slotsAny.serverMs <= 10 * r.slotsAny.oneScheduleServerMs),
    ],
    [
      '4b. POST /bookings with an Idempotency-Key',
      `${Math.round(r.keyedBookings.bookingsPerSecond)} bookings/s, ${r.keyedBookings.posted.non2xx + r.keyedBookings.posted.errors} errors of ${r.keyedBookings.posted.total}`,
      `${Math.round(r.keyedBookings.plainPerSecond)} bookings/s without a key (4.)`,
      f2(r.keyedBookings.ratio),
      r.keyedBookings.target,
      verdict(r.keyedBookings.ratio >= 0.9),
    ],
    ...(() => {
      const page = r.bookingPage;
      const rendered = ['choose', 'days', 'times', 'details', 'review'];
      const worst = Math.max(...rendered.map((step) => Math.max(page.serverMs[step], page.quietServerMs[step] ?? 0)));
      const largest = Math.max(...Object.values(page.bytes as Record<string, number>));
      return [
        [
          '10. Booking page: server time and size of each page',
          `${rendered.map((step) => `${step} ${f2(page.serverMs[step])} ms (${f1(page.bytes[step] / 1024)} KB)`).join(', ')}; alone: ${Object.entries(
            page.quietServerMs,
          )
            .map(([step, ms]) => `${step} ${f2(ms as number)} ms`)
            .join(
              ', ',
            )}; the booking itself ${f2(page.serverMs.confirm)} ms with its commit (${f1(page.bytes.confirm / 1024)} KB)`,
          '',
          '',
          page.target,
          verdict(worst <= 1 && largest <= 15 * 1024),
        ],
        [
          '10. A whole booking through the page (6 requests, 10 customers at once)',
          `${Math.round(page.bookingsPerSecond)} bookings/s (${page.bookings} bookings)`,
          `${Math.round(page.apiPerSecond)} bookings/s by POST /bookings (4.)`,
          f2(page.ratio),
          '',
          '',
        ],
      ];
    })(),
    ...(() => {
      const desk = r.desk;
      return [
        [
          '16. Front desk: the day of three practitioners (issue 46)',
          `${f2(desk.dayServerMs)} ms server time, ${f1(desk.dayBytes / 1024)} KB (${desk.appointments.join(' + ')} appointments and the free gaps)`,
          '',
          '',
          'day page ≤ 5 ms and ≤ 40 KB',
          verdict(desk.dayServerMs <= 5 && desk.dayBytes <= 40 * 1024),
        ],
        [
          '16. Front desk: a customer search',
          `by a name's other spelling (mueller) ${f2(desk.searchNameMs)} ms (${desk.searchNameFound} customers); by a phone as typed ${f2(desk.searchPhoneMs)} ms (${desk.searchPhoneFound})`,
          `over ${desk.bookings} bookings`,
          '',
          'a search over 50,000 bookings ≤ 10 ms',
          verdict(Math.max(desk.searchNameMs, desk.searchPhoneMs) <= 10),
        ],
        [
          '16. GET /slots during a flood of desk logins',
          `median ${f2(desk.slotsDuringP50)} ms (${Math.round(desk.loginsPerSecond)} logins/s, each one Argon2 hash)`,
          `${f2(desk.slotsAloneP50)} ms alone`,
          f2(desk.slotsRatio),
          'within 10 % of alone',
          verdict(desk.slotsRatio <= 1.1),
        ],
      ];
    })(),
    [
      '5. /days by look-ahead',
      r.growth.byWindow.map((g: any) => `${g.daysAhead} d: ${f2(g.serverMs)} ms (${g.windowRows} rows)`).join('; '),
      '',
      '',
      '',
      '',
    ],
    [
      '5. /days by total bookings',
      r.growth.byTotal.map((g: any) => `${g.totalBookings}: ${f2(g.serverMs)} ms`).join('; '),
      '',
      '',
      'flat',
      '',
    ],
    [
      '6. RSS of `node bin/planner.js serve` (MiB)',
      `start ${f1(r.rssMiB.start)}, warm ${f1(r.rssMiB.warm)}, after the run ${f1(r.rssMiB.end)}, after two more rounds ${f1(r.rssMiB.again1)} and ${f1(r.rssMiB.again2)}`,
      '',
      '',
      'flat',
      verdict(r.rssMiB.again2 - r.rssMiB.end < 10),
    ],
    [
      '6. Anonymous memory of `node bin/planner.js serve` (MiB)',
      `start ${f1(r.anonymousMiB.start)}, warm ${f1(r.anonymousMiB.warm)}, after the run ${f1(r.anonymousMiB.end)}`,
      '',
      '',
      '',
      '',
    ],
    ...(sea
      ? [
          [
            '6b. RSS of the single executable, idle (MiB)',
            `${f1(sea.idle)} 5 s after start`,
            '',
            '',
            sea.idleTarget,
            verdict(sea.idle <= 80),
          ],
          [
            '6b. RSS of the single executable, under load (MiB)',
            `at most ${f1(sea.steadyMax)} over 20 s of reads and bookings (end ${f1(sea.end)})`,
            '',
            '',
            sea.loadTarget,
            verdict(sea.steadyMax <= 120),
          ],
          [
            '6b. Anonymous memory of the single executable, idle (MiB)',
            `${f1(r.executableAnonymousMiB.idle)} 5 s after start`,
            '',
            '',
            r.executableAnonymousMiB.idleTarget,
            verdict(r.executableAnonymousMiB.idle <= 24),
          ],
          [
            '6b. Anonymous memory of the single executable, under load (MiB)',
            `at most ${f1(r.executableAnonymousMiB.peak)} over 20 s of reads and bookings`,
            '',
            '',
            r.executableAnonymousMiB.loadTarget,
            verdict(r.executableAnonymousMiB.peak <= 48),
          ],
        ]
      : [
          [
            '6b. RSS and anonymous memory of the single executable',
            'not measured: dist/planner is not built (npm run build:bin)',
            '',
            '',
            '<= 80 and <= 24 idle, <= 120 and <= 48 under load',
            '',
          ],
        ]),
    [
      '8. Litestream replicating beside it: GET /slots',
      `${Math.round(r.replicationBeside.with.slotsPerSecond)} req/s`,
      `${Math.round(r.replicationBeside.without.slotsPerSecond)} req/s without Litestream`,
      f2(r.replicationBeside.slotsRatio),
      r.replicationBeside.target,
      verdict(r.replicationBeside.slotsRatio >= 0.9 && r.replicationBeside.with.errors === 0),
    ],
    [
      '8. Litestream replicating beside it: POST /bookings',
      `${Math.round(r.replicationBeside.with.bookingsPerSecond)} bookings/s`,
      `${Math.round(r.replicationBeside.without.bookingsPerSecond)} bookings/s without Litestream`,
      f2(r.replicationBeside.bookingsRatio),
      r.replicationBeside.target,
      verdict(r.replicationBeside.bookingsRatio >= 0.9),
    ],
    [
      '8. Restore on a new machine',
      `${r.restore.bookings} bookings (${f1(r.restore.databaseMiB)} MiB, replica ${f1(r.restore.replicaMiB)} MiB): \`litestream restore\` ${f1(r.restore.restoreSeconds)} s, then ${Math.round(r.restore.firstAnswerMs)} ms from starting planner serve to its first answer (${r.restore.firstStatus})`,
      '',
      '',
      '',
      '',
    ],
    [
      '9. Calendar sync: 5,000 events, 200 weekly series (.ics)',
      `full ${Math.round(r.calendars.fullSyncMs)} ms, unchanged (304) ${f1(r.calendars.unchangedSyncMs)} ms (${r.calendars.busyPieces} busy times); event loop held at most ${f1(r.calendars.longestHeldMs)} ms (\`calendar add\`, a CLI process: ${Math.round(r.calendars.addMs)} ms, one transaction of ${f1(r.calendars.addHeldMs)} ms)`,
      '',
      '',
      r.calendars.heldTarget,
      verdict(r.calendars.longestHeldMs <= 20),
    ],
    [
      '9. GET /days (365 d) with 2,000 busy times',
      `${f2(r.calendars.daysWarmMs)} ms warm, ${f2(r.calendars.daysAfterSyncMs)} ms right after a sync that moved one event; ${r.calendars.daysRecomputed} day(s) computed again`,
      '',
      '',
      r.calendars.daysTarget,
      verdict(r.calendars.daysWarmMs <= 1),
    ],
    ...(r.calendarWrites
      ? [
          [
            "11. POST /bookings, every booking written into the practitioner's calendar (Radicale)",
            `${Math.round(r.calendarWrites.writingPerSecond)} bookings/s, the calendar server elsewhere (Radicale paused during the bookings; the lower of two rounds); ${f2(r.calendarWrites.answeringRatio)} with Radicale answering on the same 2 cores`,
            `${Math.round(r.calendarWrites.plainPerSecond)} bookings/s without a writing calendar`,
            f2(r.calendarWrites.ratio),
            r.calendarWrites.ratioTarget,
            verdict(r.calendarWrites.ratio >= 0.9),
          ],
          [
            '11. The writes into Radicale',
            `${Math.round(r.calendarWrites.writesPerSecond)} new events/s once Radicale goes on, until it holds them all (the lower of two rounds of 300); ${Math.round(r.calendarWrites.movesWrittenPerSecond)} moves/s of ${r.calendarWrites.bookings} bookings; the writer held the event loop at most ${f1(r.calendarWrites.writerHeldMs)} ms`,
            '',
            '',
            r.calendarWrites.heldTarget,
            verdict(r.calendarWrites.writerHeldMs <= 20),
          ],
        ]
      : [
          [
            "11. Writes into the practitioner's calendar",
            'not measured: /usr/bin/radicale is not installed',
            '',
            '',
            '',
            '',
          ],
        ]),
    [
      '12. 50 practices on one machine: anonymous memory (MiB)',
      `${Math.round(r.practices.idleAnonymousMiB)} idle (${f1(r.practices.perPracticeIdleMiB)} a practice), ${Math.round(r.practices.loadAnonymousMiB)} under the load (${f1(r.practices.perPracticeLoadMiB)} a practice); ${r.practices.executable ? 'the single executable' : 'node bin/planner.js'}, files of ${f1(r.practices.fileMiB)} MiB (${r.practices.futureBookings} future and ${r.practices.pastBookings} past bookings)`,
      '',
      '',
      `fits 4 GB: ${r.practices.fitIn4GB} practices`,
      '',
    ],
    ...(['before', 'cold', 'reboot', 'busy', 'peak'] as const)
      .filter((name) => r.practices[name])
      .map((name) => [r.practices[name], name])
      .map(([level, name]: any) => [
        `12. 50 practices at once, each taking ${level.readsPerSecond} GET /slots and ${level.bookingsPerSecond} bookings a second${COLD_RUNS[name as keyof typeof COLD_RUNS] ?? ''}`,
        `GET /slots p99 ${f1(level.slotsP99Median)} ms at the median practice, ${f1(level.slotsP99Max)} ms at the slowest (p50 ${f1(level.slotsP50Median)} ms); ${level.reads} reads and ${level.bookings} bookings, ${level.errors} errors; cores busy: servers ${f2(level.serversCores)}, journal ${f2(level.journalCores)}, load generator ${f2(level.loaderCores)} (ran at most ${Math.round(level.loaderLateMs)} ms late)`,
        '',
        '',
        '',
        '',
      ]),
    ...(r.firstRequest
      ? (['before', 'plain', 'compileCache'] as const)
          .filter((name) => r.firstRequest[name])
          .map((name) => {
            const start = r.firstRequest[name];
            return [
              `12b. A practice's first GET /slots after start (${name === 'before' ? 'before issue 49: the executable given by --before' : r.firstRequest.command}${name === 'compileCache' ? ', with the compile cache of Node' : ''})`,
              `serving after ${Math.round(start.readyMs)} ms; the first answer ${Math.round(start.firstWallMs)} ms from the start (its own time ${f1(start.firstServerMs)} ms); a warm one ${f1(start.warmWallMs)} ms (${f2(start.warmServerMs)} ms)`,
              '',
              '',
              '',
              '',
            ];
          })
      : []),
    [
      '7. Start-up',
      `planner --version ${Math.round(r.startup.versionMs)} ms, planner status ${Math.round(r.startup.statusMs)} ms`,
      '',
      '',
      '',
      '',
    ],
  ];
  const table = [
    '| scenario | planner | floor | ratio | target | |',
    '|---|---|---|---|---|---|',
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
  return table;
}

/**
 * The UID of a booking's event (RFC 5545 §3.8.4.7): the same in the customer's mails, the practitioner's feed and
 * the event planner writes into the practitioner's calendar, so that every calendar app sees one appointment. Made
 * here, and recognised here (a practitioner's calendar that holds planner's own events never blocks their times).
 */

/** The UID of the booking with `reference`: `<reference>@planner`. */
export function eventUid(reference: string): string {
  return `${reference}@planner`;
}

/** Whether `uid` is one planner made (`eventUid`), whatever the case a calendar server gives it back in. */
export function isPlannerUid(uid: string): boolean {
  return /@planner$/i.test(uid.trim());
}

/** The UID of the test event `calendar add --write-bookings` writes and deletes at once: `check-<id>@planner`. */
export function checkEventUid(id: string): string {
  return `check-${id}@planner`;
}

/**
 * The reference of the booking whose event has `uid` (`eventUid`), upper-cased as references are; undefined for any
 * other UID (the test event's, another app's).
 */
export function referenceOfUid(uid: string): string | undefined {
  const match = /^([0-9a-z]{16})@planner$/i.exec(uid.trim());
  return match ? match[1]!.toUpperCase() : undefined;
}

/** Where a self-service link leads (pure): one address for the mails, the booking page's confirmation, the page. */

/** The self-service page's address of the link `token`, under `base` (the page's public address; '' for the path). */
export function manageUrlOf(base: string, token: string): string {
  return `${base}/manage/${token}`;
}

/** The address of another date of a series on the page of the link at `home` (`<home>/date/<reference>`). */
export function dateUrlOf(home: string, reference: string): string {
  return `${home}/date/${encodeURIComponent(reference)}`;
}

/** Where a self-service link leads: one address for the mails, the booking page's confirmation and the page itself. Pure. */

/** The self-service page's address of the link `token`, under `base` (the page's public address; '' for the path). */
export function manageUrlOf(base: string, token: string): string {
  return `${base}/manage/${token}`;
}

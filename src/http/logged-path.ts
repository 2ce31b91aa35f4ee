/**
 * The path as the access log (and an error line) shows it: a page link's token and a feed's secret are keys to a
 * customer's data and never logged. A path is masked by what it could hold, not by how it is
 * written: any case, doubled slashes and percent-encoding (`/MANAGE/<token>`, `//feed/<secret>.ics`, `/%6Danage/…`).
 */

/** A run of characters as long as a token could be (tokens and secrets are 43 base64url characters). */
const SECRET_RUN = /[A-Za-z0-9_-]{32,}/;

/** Returns `segment` percent-decoded where it can be (a malformed escape stays as written). */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * Returns what the log shows of `path`: `/manage/…` or `/feed/…` for every path whose first segment names one of
 * those doors in any case or encoding, and elsewhere the path with every segment that could hold a secret as `…`.
 */
export function loggedPath(path: string): string {
  if (remembered.has(path)) return path;
  const shown = masked(path);
  // The access log asks for the same few paths many thousand times a second; a client sending endless
  // new paths only makes the memory start over, never grow past REMEMBERED short paths. Only a path shown as it is
  // is kept: one that holds a link's token or a feed's secret is masked afresh, never held in memory.
  if (shown === path && path.length <= REMEMBERED_LENGTH) {
    if (remembered.size >= REMEMBERED) remembered.clear();
    remembered.add(path);
  }
  return shown;
}

/** Paths already looked at that show as they are; at most REMEMBERED, each at most REMEMBERED_LENGTH long. */
const remembered = new Set<string>();
const REMEMBERED = 512;
const REMEMBERED_LENGTH = 256;

/** What `loggedPath` shows of a path it has not seen. */
function masked(path: string): string {
  const door = decoded(path)
    .split('/')
    .find((segment) => segment !== '')
    ?.toLowerCase();
  if (door === 'manage') return '/manage/…';
  if (door === 'feed') return '/feed/…';
  return path
    .split('/')
    .map((segment) => (SECRET_RUN.test(decoded(segment)) || SECRET_RUN.test(segment) ? '…' : segment))
    .join('/');
}

/** Returns the error line of a request that failed unexpectedly: its method, its path as logged, and the cause. */
export function failedLine(method: string, path: string, cause: unknown): string {
  return `planner: ${method} ${loggedPath(path)} failed: ${String(cause)}`;
}

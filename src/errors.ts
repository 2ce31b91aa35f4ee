import type { Checked } from './domain/checks.ts';

/**
 * The one error type of the program's core. `http` maps `code` to the spec's status and body,
 * `cli` maps it to a one-line message on stderr and exit code 1.
 */
export type ErrorCode =
  | 'invalid' // bad input: CLI exit 1, HTTP 400
  | 'not_found' // unknown id: CLI exit 1, HTTP 404
  | 'conflict' // the state forbids it (already initialised, has bookings): CLI exit 1
  | 'not_configured' // `planner init` has not run yet
  | 'storage'; // the database could not be written: HTTP 500

export class AppError extends Error {
  readonly code: ErrorCode;
  /** The offending field, where one is known (spec §2 Error.field). */
  readonly field: string | undefined;

  constructor(code: ErrorCode, message: string, field?: string) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.field = field;
  }
}

/** Returns an AppError for bad input, naming the field when given. */
export function invalid(message: string, field?: string): AppError {
  return new AppError('invalid', message, field);
}

/** Returns an AppError for an id that does not exist. */
export function notFound(message: string): AppError {
  return new AppError('not_found', message);
}

/** Returns the value of a domain check, or throws its problem as an `invalid` AppError (problems are values in domain/). */
export function valueOrInvalid<T>(checked: Checked<T>, field?: string): T {
  if (!checked.ok) throw invalid(checked.error, field);
  return checked.value;
}

/**
 * Returns `error` when it is the core's own; any other (the database refused a write) as a storage error whose
 * message, `what` and the cause, is for the log, not the client. Both ways a change of bookings is written use it:
 * alone (`inBookingTransaction`) and in a group commit (app/bookings/commit-group.ts).
 */
export function asAppError(error: unknown, what: string): AppError {
  return error instanceof AppError ? error : new AppError('storage', `${what}: ${(error as Error).message}`);
}

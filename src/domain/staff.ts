/**
 * Who works at the front desk, and what a password of theirs must be. Pure: the hashing (Argon2id, off the event
 * loop) is in app/staff/, and the words each problem is told in are the desk's (one table per language).
 */

/** What a person at the desk may do: reception sees and changes every practitioner's bookings; a practitioner only
 * their own schedules' (arrived, no-show, their absences); an admin what reception does, and the audit log. */
export const STAFF_ROLES = ['admin', 'reception', 'practitioner'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/** A password's length in characters (code points): at least 12 (OWASP's and NIST SP 800-63B's floor for a password
 * alone is 8 and 15; with a second factor, 12), and at most 256, so that no one makes the server hash megabytes. */
export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 256;

/** Why a chosen password is refused, or undefined: it will do. */
export type PasswordProblem = 'short' | 'long' | 'email' | 'practice';

/** Text compared as a person would: compatibility-normalised, lower case, without spaces. */
function folded(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, '');
}

/**
 * Returns why `password` may not be chosen by the person of `email` at the practice `practiceName`: shorter than
 * PASSWORD_MIN or longer than PASSWORD_MAX characters, or holding their e-mail address, its part before the @, or the
 * practice's name (each as a person would read it: any case, spaces aside; a part shorter than four characters is not
 * looked for). Any other character is allowed, spaces and every script included (NIST SP 800-63B §3.1.1.2).
 */
export function passwordProblem(
  password: string,
  person: { email: string; practiceName: string },
): PasswordProblem | undefined {
  const length = [...password].length;
  if (length < PASSWORD_MIN) return 'short';
  if (length > PASSWORD_MAX) return 'long';
  const text = folded(password);
  const email = folded(person.email);
  const local = email.split('@')[0] ?? '';
  if ([email, local].some((part) => part.length >= 4 && text.includes(part))) return 'email';
  const practice = folded(person.practiceName);
  if (practice.length >= 4 && text.includes(practice)) return 'practice';
  return undefined;
}

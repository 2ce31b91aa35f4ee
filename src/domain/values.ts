/** Checks of single values that the CLI and the API share. Pure. */

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Returns true for a real calendar day written `YYYY-MM-DD` (`2026-02-30` is false). */
export function isDay(text: string): boolean {
  const match = DAY.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= daysInMonth(year, month);
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Returns true when `zone` is an IANA time zone name this runtime knows (`Europe/Berlin`, `UTC`). */
export function isTimeZone(zone: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

// Pragmatic address check (what HTML's <input type=email> accepts), not the full RFC 5322 grammar.
const EMAIL = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

/** Returns the address inside `Name <address>`, or `text` itself (trimmed). */
export function addressOf(text: string): string {
  return /<([^<>]+)>\s*$/.exec(text)?.[1] ?? text.trim();
}

/** Returns true for a plausible e-mail address such as `anna@example.com`. */
export function isEmail(text: string): boolean {
  return text.length <= 254 && EMAIL.test(text);
}

/** Returns `text` as an integer when it is one written plainly (`12`, not `012`, `1.5`, `1e3`), else undefined. */
export function parsePlainInt(text: string): number | undefined {
  if (!/^(0|-?[1-9]\d{0,14})$/.test(text)) return undefined;
  return Number(text);
}

/** Returns today's local day `YYYY-MM-DD` in `zone` at instant `now`. */
export function localDay(now: Date, zone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

/** Returns `YYYY-MM-DD HH:MM` for a UTC instant in `zone` (for people reading the CLI). */
export function formatLocal(instant: Date, zone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    })
      .formatToParts(instant)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}

/** Returns true for a phone number as people write it: digits, spaces and `+()./-`, with 3 to 20 digits. */
export function isPhone(text: string): boolean {
  if (!/^\+?[0-9 ()./-]{3,32}$/.test(text)) return false;
  const digits = text.replace(/\D/g, '').length;
  return digits >= 3 && digits <= 20;
}

/** Returns true for a plain decimal number (`42`, `-1.5`). */
export function isDecimal(text: string): boolean {
  return /^-?\d{1,15}(\.\d{1,15})?$/.test(text);
}

/** Returns true when a non-empty `text` fits a form field's input type. */
export function fitsInputType(inputType: 'text' | 'email' | 'tel' | 'number' | 'date', text: string): boolean {
  switch (inputType) {
    case 'text':
      return true;
    case 'email':
      return isEmail(text);
    case 'tel':
      return isPhone(text);
    case 'number':
      return isDecimal(text);
    case 'date':
      return isDay(text);
  }
}

/** Returns `list` with `item` moved to the 1-based `position` (clamped to the list), the others keeping their order. */
export function moveTo<T>(list: readonly T[], item: T, position: number): T[] {
  const rest = list.filter((entry) => entry !== item);
  const index = Math.min(Math.max(position - 1, 0), rest.length);
  return [...rest.slice(0, index), item, ...rest.slice(index)];
}

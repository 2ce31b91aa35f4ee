import { describe, expect, it } from 'vitest';
import {
  clearedCookie,
  cookieValue,
  DESK_COOKIE,
  isSessionFormToken,
  sessionCookie,
} from '../../src/http/desk-session.ts';

const ID = 'a'.repeat(20) + '_-' + 'B9'.repeat(10) + 'z';

describe('the desk’s session cookie', () => {
  it('carries the identifier with __Host-, Secure, HttpOnly, SameSite=Lax, Path=/ and no Domain', () => {
    expect(ID).toHaveLength(43);
    const cookie = sessionCookie(DESK_COOKIE, ID);
    expect(cookie).toBe(`__Host-planner-desk=${ID}; Path=/; Secure; HttpOnly; SameSite=Lax`);
    expect(cookie).not.toMatch(/Domain|Max-Age|Expires/);
    expect(sessionCookie(DESK_COOKIE, ID, 300)).toMatch(/; Max-Age=300$/);
    expect(clearedCookie(DESK_COOKIE)).toBe('__Host-planner-desk=; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=0');
  });

  it('reads the identifier from a Cookie header among others, and nothing else', () => {
    expect(cookieValue(`theme=dark; ${DESK_COOKIE}=${ID}; x=1`, DESK_COOKIE)).toBe(ID);
    expect(cookieValue(`${DESK_COOKIE}=${ID}`, DESK_COOKIE)).toBe(ID);
    for (const header of [
      null,
      '',
      'theme=dark',
      `planner-desk=${ID}`, // without the prefix: another cookie
      `${DESK_COOKIE}=${ID}x`,
      `${DESK_COOKIE}=${ID.slice(1)}`,
      `${DESK_COOKIE}=${ID}; ${DESK_COOKIE}=${ID}`, // twice: none
      `${DESK_COOKIE}="${ID}"`,
      `${DESK_COOKIE}=${ID.replace('a', '%')}`,
    ])
      expect(cookieValue(header, DESK_COOKIE), String(header)).toBeUndefined();
  });

  it('reads a hostile header in bounded time: a megabyte of separators is cut at 8 KiB', () => {
    const header = `${';'.repeat(1 << 20)}${DESK_COOKIE}=${ID}`;
    expect(cookieValue(header, DESK_COOKIE)).toBeUndefined();
  });

  it('compares the form token exactly', () => {
    expect(isSessionFormToken(ID, ID)).toBe(true);
    expect(isSessionFormToken(ID, `${ID.slice(0, -1)}y`)).toBe(false);
    expect(isSessionFormToken(ID, ID.slice(1))).toBe(false);
    expect(isSessionFormToken(ID, null)).toBe(false);
  });
});

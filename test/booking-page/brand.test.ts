/**
 * Issue 41, item 6: a practice's colour and logo on its booking page. `booking-page enable --colour --logo` refuses
 * what would make the page unreadable or unsafe in one line, changing nothing; a real server shows the colour as a
 * second style sheet its Content-Security-Policy names by hash, and serves the logo at an address that changes with it.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, cliJson, cliOk, snapshot, tempDir } from '../helpers.ts';
import { get, pageSetup, pngOf } from './flow.ts';

describe('the practice’s colour and logo on the booking page', () => {
  it('refuses a light colour, a colour that is not one, an SVG, a large file and a missing one: one line, nothing changed', async () => {
    const s = await pageSetup();
    const folder = tempDir();
    const svg = join(folder, 'logo.svg');
    writeFileSync(svg, '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const large = join(folder, 'large.png');
    writeFileSync(large, Buffer.concat([pngOf(4, 4, [0, 0, 0]), Buffer.alloc(120 * 1024)]));
    const before = snapshot(s.db);
    const refusals: [string[], string][] = [
      [
        ['--colour', '#ffcc00'],
        'planner: --colour #ffcc00 is too light: white text on it has a contrast of 1.5:1 and needs at least 4.5:1 (WCAG AA); choose a darker shade',
      ],
      [
        ['--colour', 'green'],
        'planner: --colour takes a colour as #rrggbb, or default (got "green"): e.g. --colour #1f5fbf',
      ],
      [
        ['--logo', svg],
        `planner: --logo ${svg} is not a PNG, JPEG or WebP image (SVG is not taken: it can hold script)`,
      ],
      [
        ['--logo', large],
        `planner: --logo ${large} has 121 KiB; the page takes at most 100 KiB (a logo of about 400 pixels wide is enough)`,
      ],
      [['--logo', join(folder, 'none.png')], `planner: --logo ${join(folder, 'none.png')} cannot be read (ENOENT)`],
    ];
    for (const [options, line] of refusals) {
      const refused = await cli(s.db, 'booking-page', 'enable', ...options);
      expect(refused.code).toBe(1);
      expect(refused.stderr.trim()).toBe(line);
    }
    expect(snapshot(s.db)).toEqual(before);
    await s.server.stop();
  });

  it('shows the colour (its style sheet named by hash in the CSP) and the logo (an address that changes with it)', async () => {
    const s = await pageSetup();
    const logo = join(tempDir(), 'logo.png');
    const bytes = pngOf(120, 40, [10, 110, 79]);
    writeFileSync(logo, bytes);
    const enabled = await cliOk(s.db, 'booking-page', 'enable', '--colour', '#0A6E4F', '--logo', logo);
    expect(enabled).toContain('Look: buttons in #0a6e4f; the practice’s logo on every page.');
    const status = await cliJson(s.db, 'booking-page', 'status', '--json');
    const version = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
    expect(status).toMatchObject({ colour: '#0a6e4f', logo: version });

    const page = await get(`${s.base}/book/`);
    expect(page.status).toBe(200);
    const styles = [...page.html.matchAll(/<style>(.*?)<\/style>/gs)].map((match) => match[1]!);
    expect(styles).toHaveLength(2);
    expect(styles[1]).toContain('.button{background:#0a6e4f;border-color:#0a6e4f}');
    const policy = page.headers.get('content-security-policy')!;
    for (const css of styles) expect(policy).toContain(`'sha256-${createHash('sha256').update(css).digest('base64')}'`);
    expect(page.html).toContain(`<img class="logo" src="/book/logo?v=${version}" alt="">`);

    const served = await fetch(`${s.base}/book/logo?v=${version}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(Buffer.from(await served.arrayBuffer())).toEqual(bytes);
    expect((await fetch(`${s.base}/book/logo?v=old`)).headers.get('cache-control')).toBe('no-cache');

    // Back to planner's own look: one style sheet, no logo, and its address answers 404.
    await cliOk(s.db, 'booking-page', 'enable', '--colour', 'default', '--logo', 'none');
    const plain = await get(`${s.base}/book/`);
    expect([...plain.html.matchAll(/<style>/g)]).toHaveLength(1);
    expect(plain.html).not.toContain('class="logo"');
    expect((await fetch(`${s.base}/book/logo?v=${version}`)).status).toBe(404);
    await s.server.stop();
  });
});

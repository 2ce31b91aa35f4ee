/** The page checks of chromium.ts find what they are for (so a page that passes them really is readable). */
import { describe, expect, it } from 'vitest';
import { axeViolations, checkPage, launchChromium, phonePage } from './chromium.ts';

const page = (body: string) =>
  `<!doctype html><html><head><meta name="viewport" content="width=device-width, initial-scale=1"></head><body style="font-size:18px;color:#1a1a1a;background:#fff;margin:0">${body}</body></html>`;

describe('the page checks (Chromium, JavaScript off)', () => {
  it('pass a readable page and name each element that is too small, too faint or too wide', async () => {
    const tab = await phonePage(await launchChromium());
    await tab.setContent(page('<p>Readable text</p><a style="color:#1a56b0" href="#">A link</a>'));
    expect((await checkPage(tab)).problems).toEqual([]);
    await tab.setContent(
      page(
        '<p style="font-size:12px">Small print</p><p style="color:#aaa">Faint text</p>' +
          '<p style="font-size:24px;color:#888">Large and 3.5:1</p><div style="width:500px">Too wide</div>',
      ),
    );
    const report = await checkPage(tab);
    expect(report.problems).toEqual([
      '"Small print" (p): font size 12px < 16px',
      '"Faint text" (p): contrast 2.32:1 (rgb(170, 170, 170) on rgb(255, 255, 255))',
      'the page scrolls sideways: 500px wide at 320px',
    ]);
    expect(report.smallestFontPx).toBe(12);
  });

  it('axe-core names what a page lacks (a language, a title, an image’s text), on a page whose scripts are off', async () => {
    const tab = await phonePage(await launchChromium());
    await tab.setContent(
      '<!doctype html><html><head></head><body><main><h1>Hello</h1><img src="x.png"></main></body></html>',
    );
    expect((await axeViolations(tab)).map((line) => line.split(':')[0])).toEqual(
      expect.arrayContaining(['html-has-lang', 'document-title', 'image-alt']),
    );
    await tab.setContent(
      '<!doctype html><html lang="en"><head><title>Fine</title></head><body><main><h1>Hello</h1><p>Text</p></main></body></html>',
    );
    expect(await axeViolations(tab)).toEqual([]);
  });
});

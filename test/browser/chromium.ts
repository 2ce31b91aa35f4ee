/**
 * Debian's Chromium driven by playwright-core (no downloaded browser): a phone-sized page with JavaScript off, as a
 * customer without scripts sees it, and checks of what a page must be on a phone: text of at least 16 px, no
 * horizontal scroll at 320 px, WCAG AA contrast. The checks run through `page.evaluate`, which Playwright runs over
 * the DevTools protocol, so they work on a page whose own scripts are off.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type Browser, chromium, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { onCleanup } from '../helpers.ts';

// The page's own globals, as the checks below use them inside the browser (this module is not compiled with the DOM
// library: the declarations stay local to it).
declare const document: any;
declare const getComputedStyle: (element: any) => any;
declare const Node: { TEXT_NODE: number };

export const CHROMIUM = '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Starts Chromium; it is closed after the test. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `${CHROMIUM} is missing: apt-get install chromium fonts-dejavu-core (bash scripts/test-packages.sh --install does it)`,
    );
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
  onCleanup(() => browser.close());
  return browser;
}

/** A new page the size of a small phone (320 × 640 CSS pixels, touch), JavaScript off unless asked for. */
export async function phonePage(
  browser: Browser,
  options: { locale?: string; javaScript?: boolean } = {},
): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 320, height: 640 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    javaScriptEnabled: options.javaScript ?? false,
    locale: options.locale ?? 'en-GB',
  });
  return context.newPage();
}

/** What the checks found on one page: problems (empty when it passes) and the extremes seen. */
export interface PageReport {
  problems: string[];
  smallestFontPx: number;
  lowestContrast: number;
  scrollWidth: number;
}

/**
 * Checks every visible element that holds text of its own: computed font size at least 16 px, and the WCAG 2.x
 * contrast of its colour against the first opaque background behind it (white at the root) at least 4.5:1, or 3:1
 * for large text (24 px, or 18.66 px bold); and that the page does not scroll sideways at its width.
 */
export async function checkPage(page: Page): Promise<PageReport> {
  return page.evaluate(() => {
    const rgba = (text: string) => {
      const [r = 0, g = 0, b = 0, a = 1] = (text.match(/[\d.]+/g) ?? []).map(Number);
      return { r, g, b, a: text.startsWith('rgba') ? a : 1 };
    };
    const luminance = ({ r, g, b }: { r: number; g: number; b: number }) => {
      const channel = (v: number) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    };
    const background = (element: any) => {
      for (let node = element; node; node = node.parentElement) {
        const colour = rgba(getComputedStyle(node).backgroundColor);
        if (colour.a > 0) return colour;
      }
      return { r: 255, g: 255, b: 255, a: 1 };
    };
    const problems: string[] = [];
    let smallestFontPx = Infinity;
    let lowestContrast = Infinity;
    for (const element of document.body.querySelectorAll('*')) {
      const own = [...element.childNodes].some(
        (node: any) => node.nodeType === Node.TEXT_NODE && node.textContent!.trim() !== '',
      );
      const box = element.getBoundingClientRect();
      const style = getComputedStyle(element);
      if (!own || box.width === 0 || box.height === 0 || style.visibility === 'hidden') continue;
      const text = element.textContent!.trim().slice(0, 40);
      const size = parseFloat(style.fontSize);
      smallestFontPx = Math.min(smallestFontPx, size);
      if (size < 16) problems.push(`"${text}" (${element.tagName.toLowerCase()}): font size ${size}px < 16px`);
      const behind = background(element);
      const [light, dark] = [luminance(rgba(style.color)), luminance(behind)].sort((a, b) => b - a) as [number, number];
      const ratio = (light + 0.05) / (dark + 0.05);
      lowestContrast = Math.min(lowestContrast, ratio);
      const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
      if (ratio < (large ? 3 : 4.5))
        problems.push(
          `"${text}" (${element.tagName.toLowerCase()}): contrast ${ratio.toFixed(2)}:1 (${style.color} on rgb(${behind.r}, ${behind.g}, ${behind.b}))`,
        );
    }
    const scroller = document.scrollingElement!;
    if (scroller.scrollWidth > scroller.clientWidth)
      problems.push(`the page scrolls sideways: ${scroller.scrollWidth}px wide at ${scroller.clientWidth}px`);
    return { problems, smallestFontPx, lowestContrast, scrollWidth: scroller.scrollWidth };
  });
}

/** The rules axe-core runs: WCAG 2.0 to 2.2, A and AA, and its best practices (landmarks, headings, …). */
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa', 'best-practice'];

let axeSource: string | undefined;
const axePages = new WeakMap<Browser, Page>();

/**
 * Returns axe-core's violations on the HTML a page shows now, as `rule: element, …` lines (empty when it passes).
 * axe runs as a script and needs its promises, which do not settle in a page whose scripts are off: it checks the
 * same HTML in a page of its own, at the same size, with scripts on (the page has none of its own: nothing else
 * changes).
 */
export async function axeViolations(page: Page): Promise<string[]> {
  const browser = page.context().browser()!;
  let checker = axePages.get(browser);
  if (!checker) {
    const context = await browser.newContext({
      viewport: page.viewportSize()!,
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
      javaScriptEnabled: true,
    });
    checker = await context.newPage();
    axePages.set(browser, checker);
  }
  await checker.setViewportSize(page.viewportSize()!);
  await checker.setContent(await page.content());
  axeSource ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  await checker.evaluate(axeSource);
  const violations = (await checker.evaluate(
    (tags) =>
      (globalThis as any).axe.run({ runOnly: { type: 'tag', values: tags } }).then((result: any) => result.violations),
    AXE_TAGS,
  )) as { id: string; nodes: { target: string[] }[] }[];
  return violations.map(
    (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
  );
}

/**
 * Expects the page as it is now to be readable at its width and at 360 px (checkPage) and to pass axe-core, naming
 * `name` in what fails; returns the report at its width and leaves the page at 360 px (where the screenshots of
 * docs/ are taken). Runs `atWide`, if given, at 360 px before the page goes back to its size.
 */
export async function expectReadable(page: Page, name: string, atWide?: () => Promise<unknown>): Promise<PageReport> {
  const report = await checkPage(page);
  expect(report.problems, `${name}: ${report.problems.join('; ')}`).toEqual([]);
  expect(await axeViolations(page), `${name}: axe-core`).toEqual([]);
  const size = page.viewportSize()!;
  await page.setViewportSize({ width: 360, height: 640 });
  const wider = await checkPage(page);
  expect(wider.problems, `${name} at 360 px: ${wider.problems.join('; ')}`).toEqual([]);
  await atWide?.();
  await page.setViewportSize(size);
  return report;
}

/** Presses Tab until the focused element's text, label or value is `text`; returns how many presses that took. */
export async function tabTo(page: Page, text: string | RegExp): Promise<number> {
  for (let presses = 1; presses <= 80; presses++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const element = document.activeElement;
      return `${(element?.innerText ?? '').trim()}|${element?.labels?.[0]?.innerText?.trim() ?? ''}|${element?.id ?? ''}`;
    });
    if (focused.split('|').some((part: string) => (typeof text === 'string' ? part === text : text.test(part))))
      return presses;
  }
  throw new Error(`no element "${text}" reached with Tab`);
}

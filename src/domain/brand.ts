/**
 * A practice's look on its booking page: its colour, checked for contrast so that the page stays
 * readable (WCAG 2.2 AA: 4.5:1 for text), and its logo, recognised by its first bytes. Pure.
 */

/** The colour of buttons and day frames when the practice sets none (kit.ts: white on it, 6:1). */
export const DEFAULT_COLOUR = '#1f5fbf';
/** The least contrast the colour needs against white: white text on its buttons, its text on white ones. */
export const MIN_CONTRAST = 4.5;
/** The largest logo the page serves. */
export const LOGO_MAX_BYTES = 100 * 1024;
/**
 * The longest side, in pixels, a logo may declare. The page shows it at most 72 pixels high and as wide as the page;
 * 2000 is five times what a sharp screen needs there, and bounds what each visitor's browser decodes (2000 × 2000
 * pixels: 16 MB), where a file of a few KiB may declare 100,000 × 100,000.
 */
export const LOGO_MAX_SIDE = 2000;

/** The relative luminance of `#rrggbb` (WCAG 2.2). */
function luminance(hex: string): number {
  const channel = (at: number) => {
    const value = Number.parseInt(hex.slice(at, at + 2), 16) / 255;
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** The contrast ratio of two colours `#rrggbb` (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/**
 * `colour` when white text reads on it (MIN_CONTRAST), as `--colour` keeps it; else undefined, for planner's own
 * (a mail's buttons and band take the practice's colour through this, the same rule as the booking page's).
 */
export function readableColour(colour: string | null | undefined): string | undefined {
  return colour && isColour(colour) && contrastRatio(colour, '#ffffff') >= MIN_CONTRAST ? colour : undefined;
}

/** Whether `text` is a colour as `--colour` takes it: `#` and six hexadecimal digits. */
export function isColour(text: string): boolean {
  return /^#[0-9a-fA-F]{6}$/.test(text);
}

/** The image type of a logo's bytes (PNG, JPEG, WebP), or undefined for anything else (SVG included: it can hold script). */
export function logoType(bytes: Uint8Array): 'image/png' | 'image/jpeg' | 'image/webp' | undefined {
  const starts = (...values: number[]) => values.every((value, index) => bytes[index] === value);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x52, 0x49, 0x46, 0x46) && String.fromCharCode(...bytes.subarray(8, 12)) === 'WEBP') return 'image/webp';
  return undefined;
}

/**
 * The size in pixels an image declares in its header, read without decoding it: PNG's IHDR, JPEG's frame header
 * (SOF), WebP's VP8, VP8L or VP8X chunk. Pure. The bytes come from a file anyone may have made: every read is checked
 * against their length, and the walk over a JPEG's markers moves at least two bytes on at each step, so it ends within
 * half the file's length whatever the markers say.
 */

export interface ImageSize {
  width: number;
  height: number;
}

/** The width and height `bytes` declare as a PNG, JPEG or WebP image, or undefined when they cannot be read. */
export function imageSize(bytes: Uint8Array): ImageSize | undefined {
  const size = declared(bytes);
  // A side of 0 is no image a browser shows (a JPEG's height 0 means "given later, after the first scan").
  return size && size.width > 0 && size.height > 0 ? size : undefined;
}

function declared(bytes: Uint8Array): ImageSize | undefined {
  if (startsWith(bytes, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return pngSize(bytes);
  if (startsWith(bytes, 0, [0xff, 0xd8])) return jpegSize(bytes);
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return webpSize(bytes);
  return undefined;
}

/** PNG: the first chunk is IHDR, 13 bytes, width and height first (big-endian). */
function pngSize(bytes: Uint8Array): ImageSize | undefined {
  if (bytes.length < 24 || uint32(bytes, 8) !== 13 || ascii(bytes, 12, 16) !== 'IHDR') return undefined;
  return { width: uint32(bytes, 16), height: uint32(bytes, 20) };
}

/**
 * JPEG: the segments after SOI, each a marker (0xFF, any number of fill bytes 0xFF, a code) and, except for the
 * standalone markers, a length that counts itself; the first frame header (SOF0 to SOF15, but C4 DHT, C8 JPG and CC
 * DAC, which share that range) holds the height, then the width. A scan (SOS) or the end (EOI) before it: no size.
 */
function jpegSize(bytes: Uint8Array): ImageSize | undefined {
  let at = 2;
  while (at < bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    while (bytes[at] === 0xff) at++;
    const code = bytes[at++];
    if (code === undefined || code === 0x00 || code === 0xd9 || code === 0xda) return undefined;
    if (code === 0x01 || (code >= 0xd0 && code <= 0xd8)) continue;
    if (at + 2 > bytes.length) return undefined;
    const length = uint16(bytes, at);
    if (length < 2) return undefined;
    if (code >= 0xc0 && code <= 0xcf && code !== 0xc4 && code !== 0xc8 && code !== 0xcc) {
      // length (2), sample precision (1), height (2), width (2), then the components.
      if (length < 8 || at + 7 > bytes.length) return undefined;
      return { width: uint16(bytes, at + 5), height: uint16(bytes, at + 3) };
    }
    at += length;
  }
  return undefined;
}

/**
 * WebP: the first chunk after the RIFF header. VP8X (extended: alpha, animation, metadata) declares the canvas, which
 * every frame must fit (decoders refuse a file whose image does not); VP8 (lossy) a key frame's 14-bit sides after its
 * start code (the two bits above are a scale a decoder may apply, not the size it decodes to); VP8L (lossless) its
 * sides less one, 14 bits each, after the signature 0x2F.
 */
function webpSize(bytes: Uint8Array): ImageSize | undefined {
  const chunk = ascii(bytes, 12, 16);
  const data = 20;
  if (chunk === 'VP8X' && data + 10 <= bytes.length) {
    return { width: uint24le(bytes, data + 4) + 1, height: uint24le(bytes, data + 7) + 1 };
  }
  if (chunk === 'VP8 ' && data + 10 <= bytes.length && startsWith(bytes, data + 3, [0x9d, 0x01, 0x2a])) {
    return { width: uint16le(bytes, data + 6) & 0x3fff, height: uint16le(bytes, data + 8) & 0x3fff };
  }
  if (chunk === 'VP8L' && data + 5 <= bytes.length && bytes[data] === 0x2f) {
    const bits = uint16le(bytes, data + 1) + uint16le(bytes, data + 3) * 0x10000;
    return { width: (bits & 0x3fff) + 1, height: (Math.floor(bits / 0x4000) & 0x3fff) + 1 };
  }
  return undefined;
}

function startsWith(bytes: Uint8Array, at: number, values: number[]): boolean {
  return values.every((value, index) => bytes[at + index] === value);
}

function ascii(bytes: Uint8Array, start: number, end: number): string {
  return end <= bytes.length ? String.fromCharCode(...bytes.subarray(start, end)) : '';
}

// The readers below are called only where the bounds were checked: a byte past the end would read as 0.
function byte(bytes: Uint8Array, at: number): number {
  return bytes[at] ?? 0;
}

function uint16(bytes: Uint8Array, at: number): number {
  return byte(bytes, at) * 0x100 + byte(bytes, at + 1);
}

function uint32(bytes: Uint8Array, at: number): number {
  return uint16(bytes, at) * 0x10000 + uint16(bytes, at + 2);
}

function uint16le(bytes: Uint8Array, at: number): number {
  return byte(bytes, at) + byte(bytes, at + 1) * 0x100;
}

function uint24le(bytes: Uint8Array, at: number): number {
  return uint16le(bytes, at) + byte(bytes, at + 2) * 0x10000;
}

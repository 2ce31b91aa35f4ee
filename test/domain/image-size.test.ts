/**
 * The size a logo declares, read from its header without decoding it (the booking page refuses one larger than 2000
 * pixels on a side). The fixtures are real files: the PNG from test/booking-page/flow.ts, the JPEG and WebP images
 * written by Chromium's encoder (a canvas of 37 × 21 pixels; the colour profile left out), which Chromium decodes at
 * that size. Around them, headers as a hostile file would make them: cut off, lying, or walking many markers.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { imageSize } from '../../src/domain/image-size.ts';
import { pngDeclaring, pngOf } from '../booking-page/flow.ts';
import { cpuStopwatch } from '../cpu.ts';

const JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYnKSopGR8tMC0oMCUoKSj/2wBDAQcHBwoIChMKChMoGhYaKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCj/wAARCAAVACUDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAf/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFgEBAQEAAAAAAAAAAAAAAAAAAAEG/8QAFBEBAAAAAAAAAAAAAAAAAAAAAP/aAAwDAQACEQMRAD8AnYCsSAAAAAAAAAA//9k=',
  'base64',
);
const WEBP_LOSSY = Buffer.from(
  'UklGRkAAAABXRUJQVlA4IDQAAAAQAwCdASolABUAPm02l0ikIyIhJWgAgA2JZwAALqYfEAAA/vCbI//+YJ/7/f9/vJcAAAAA',
  'base64',
);
const WEBP_LOSSLESS = Buffer.from('UklGRh4AAABXRUJQVlA4TBEAAAAvJAAFAAdQtyr0qf+BiOh/AAA=', 'base64');
const WEBP_EXTENDED = Buffer.from(
  'UklGRoQAAABXRUJQVlA4WAoAAAAQAAAAJAAAFAAAQUxQSBQAAAABDzCAERFCSEB44P9aC/SI/kcJD1ZQOCBKAAAAUAMAnQEqJQAVAD5tLJJFpCKhmAQAQAbEoAxNgxfL4jNndSAA/vCZQp/8wT/3+/7/eYb9fpB1XcvPNfwS9NzzX8BPwI0tGX4AAAA=',
  'base64',
);
const PNG = pngOf(120, 40, [10, 110, 79]);

/** Where the JPEG fixture's frame header (FF C0) starts. */
const SOF_AT = JPEG.indexOf(Buffer.from([0xff, 0xc0]));

/** The JPEG fixture with `edit` applied to a copy. */
function jpegWith(edit: (copy: Buffer) => void): Buffer {
  const copy = Buffer.from(JPEG);
  edit(copy);
  return copy;
}

/** A JPEG's start, the `segments` given, then the fixture's frame header and the rest. */
function jpegAfter(...segments: Buffer[]): Buffer {
  return Buffer.concat([JPEG.subarray(0, 2), ...segments, JPEG.subarray(SOF_AT)]);
}

/** A marker segment: FF, `code`, the length (counting itself) and `body`. */
function segment(code: number, body: Buffer = Buffer.alloc(0)): Buffer {
  const head = Buffer.from([0xff, code, 0, 0]);
  head.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([head, body]);
}

/** The WebP fixture `webp` with `edit` applied to a copy. */
function webpWith(webp: Buffer, edit: (copy: Buffer) => void): Buffer {
  const copy = Buffer.from(webp);
  edit(copy);
  return copy;
}

const size = (width: number, height: number) => ({ width, height });

describe('the size an image declares', () => {
  const cases: [string, Uint8Array, { width: number; height: number } | undefined][] = [
    ['a PNG', PNG, size(120, 40)],
    ['a PNG that declares 100,000 × 100,000', pngDeclaring(PNG, 100_000, 100_000), size(100_000, 100_000)],
    ['a PNG that declares the most its header holds', pngDeclaring(PNG, 2 ** 32 - 1, 1), size(2 ** 32 - 1, 1)],
    ['a PNG cut off inside its IHDR', PNG.subarray(0, 20), undefined],
    ['a PNG of its signature alone', PNG.subarray(0, 8), undefined],
    ['a PNG whose first chunk is not IHDR', Buffer.from(PNG).fill(0x61, 12, 16), undefined],
    ['a PNG whose IHDR is not 13 bytes long', Buffer.from(PNG).fill(0xff, 8, 12), undefined],
    ['a PNG 0 pixels wide', pngDeclaring(PNG, 0, 40), undefined],

    ['a JPEG (baseline, SOF0)', JPEG, size(37, 21)],
    ['a progressive JPEG (SOF2)', jpegWith((copy) => copy.writeUInt8(0xc2, SOF_AT + 1)), size(37, 21)],
    ['an arithmetic-coded JPEG (SOF9)', jpegWith((copy) => copy.writeUInt8(0xc9, SOF_AT + 1)), size(37, 21)],
    [
      'a JPEG that declares 65,535 × 65,535',
      jpegWith((copy) => {
        copy.writeUInt16BE(65_535, SOF_AT + 5);
        copy.writeUInt16BE(65_535, SOF_AT + 7);
      }),
      size(65_535, 65_535),
    ],
    [
      'a JPEG whose height comes later (DNL: 0 in the frame header)',
      jpegWith((c) => c.writeUInt16BE(0, SOF_AT + 5)),
      undefined,
    ],
    // C4 (DHT), C8 (JPG) and CC (DAC) sit among the frame headers' codes but are not frame headers: read past them.
    ...[0xc4, 0xc8, 0xcc].map((code): [string, Buffer, { width: number; height: number }] => [
      `a JPEG with a ${code.toString(16).toUpperCase()} segment that looks like a frame header before its own`,
      jpegAfter(segment(code, Buffer.from([8, 0x7f, 0xff, 0x7f, 0xff, 1, 1, 0x11, 0]))),
      size(37, 21),
    ]),
    ['a JPEG with fill bytes before its frame header', jpegAfter(Buffer.from([0xff, 0xff, 0xff])), size(37, 21)],
    [
      'a JPEG with standalone markers (TEM, RST0–7) before its frame header',
      jpegAfter(Buffer.from([0xff, 0x01, 0xff, 0xd0, 0xff, 0xd7])),
      size(37, 21),
    ],
    [
      'a JPEG whose thumbnail (in APP1) declares another size',
      jpegAfter(
        segment(0xe1, Buffer.concat([Buffer.from('Exif\0\0'), jpegWith((c) => c.writeUInt16BE(9999, SOF_AT + 5))])),
      ),
      size(37, 21),
    ],
    ['a JPEG cut off inside its frame header', JPEG.subarray(0, SOF_AT + 6), undefined],
    ['a JPEG cut off before its frame header', JPEG.subarray(0, SOF_AT), undefined],
    ['a JPEG cut off after a marker', JPEG.subarray(0, SOF_AT + 2), undefined],
    [
      'a JPEG whose frame header is too short to hold a size',
      jpegWith((c) => c.writeUInt16BE(7, SOF_AT + 2)),
      undefined,
    ],
    ['a JPEG whose scan (SOS) comes before any frame header', jpegAfter(segment(0xda, Buffer.alloc(10))), undefined],
    ['a JPEG that ends (EOI) before any frame header', jpegAfter(Buffer.from([0xff, 0xd9])), undefined],
    ['a JPEG with a segment whose length is 0', jpegAfter(Buffer.from([0xff, 0xe0, 0, 0])), undefined],
    ['a JPEG with a segment whose length is 1', jpegAfter(Buffer.from([0xff, 0xe0, 0, 1])), undefined],
    ['a JPEG with a segment longer than the file', jpegAfter(Buffer.from([0xff, 0xe0, 0xff, 0xff])), undefined],
    ['a JPEG with bytes between segments that are no marker', jpegAfter(Buffer.from([0x00, 0x12])), undefined],
    ['a JPEG with FF 00 where a marker belongs', jpegAfter(Buffer.from([0xff, 0x00])), undefined],
    ['a JPEG of its start alone', JPEG.subarray(0, 2), undefined],
    [
      'a JPEG of its start and fill bytes to 100 KiB',
      Buffer.concat([JPEG.subarray(0, 2), Buffer.alloc(100 * 1024, 0xff)]),
      undefined,
    ],

    ['a WebP (lossy, VP8)', WEBP_LOSSY, size(37, 21)],
    ['a WebP (lossless, VP8L)', WEBP_LOSSLESS, size(37, 21)],
    ['a WebP (extended, VP8X: with alpha)', WEBP_EXTENDED, size(37, 21)],
    [
      'a WebP whose VP8X declares the most it holds',
      webpWith(WEBP_EXTENDED, (copy) => copy.fill(0xff, 24, 30)),
      size(2 ** 24, 2 ** 24),
    ],
    [
      'a lossy WebP that declares the most it holds (the scale bits not counted)',
      webpWith(WEBP_LOSSY, (copy) => copy.fill(0xff, 26, 30)),
      size(16_383, 16_383),
    ],
    [
      'a lossless WebP that declares the most it holds',
      webpWith(WEBP_LOSSLESS, (copy) => {
        copy.fill(0xff, 21, 24);
        copy.writeUInt8(copy[24]! | 0x0f, 24);
      }),
      size(16_384, 16_384),
    ],
    ['a lossy WebP without the start code', webpWith(WEBP_LOSSY, (copy) => copy.writeUInt8(0, 23)), undefined],
    ['a lossless WebP without its signature', webpWith(WEBP_LOSSLESS, (copy) => copy.writeUInt8(0, 20)), undefined],
    ['a lossy WebP cut off inside its frame header', WEBP_LOSSY.subarray(0, 28), undefined],
    ['a lossless WebP cut off inside its header', WEBP_LOSSLESS.subarray(0, 23), undefined],
    ['an extended WebP cut off inside VP8X', WEBP_EXTENDED.subarray(0, 28), undefined],
    [
      'a WebP whose first chunk is another',
      webpWith(WEBP_LOSSY, (copy) => copy.write('ALPH', 12, 'latin1')),
      undefined,
    ],
    ['a WebP of its RIFF header alone', WEBP_LOSSY.subarray(0, 12), undefined],

    ['nothing', new Uint8Array(0), undefined],
    ['an SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'), undefined],
    ['a GIF', Buffer.from('GIF89a\x0a\x00\x0a\x00', 'latin1'), undefined],
  ];
  it.each(cases)('%s', (_, bytes, expected) => {
    expect(imageSize(bytes)).toEqual(expected);
  });

  it('walks a JPEG of 25,000 segments before its frame header, one of as many with none, and 50,000 standalone markers, in one pass', () => {
    const comments = Buffer.concat(Array.from({ length: 25_000 }, () => segment(0xfe)));
    const restarts = Buffer.from(Array.from({ length: 50_000 }, () => [0xff, 0xd0]).flat());
    const jpegs = [
      jpegAfter(comments),
      Buffer.concat([JPEG.subarray(0, 2), comments]),
      Buffer.concat([JPEG.subarray(0, 2), restarts]),
    ];
    // The walks alone, in this thread's CPU time (test/cpu.ts): one pass is milliseconds on any machine, a walk
    // that went back over the segments would take seconds; a loaded machine stretches only wall time.
    const cpu = cpuStopwatch();
    const sizes = jpegs.map((jpeg) => imageSize(jpeg));
    expect(cpu()).toBeLessThan(1000);
    expect(sizes).toEqual([size(37, 21), undefined, undefined]);
  });

  test.prop([fc.constantFrom(PNG, JPEG, WEBP_LOSSY, WEBP_LOSSLESS, WEBP_EXTENDED), fc.nat()])(
    'a file cut off anywhere declares its whole size or none',
    (file, cut) => {
      const whole = imageSize(file);
      const part = imageSize(file.subarray(0, cut % (file.length + 1)));
      expect(part === undefined || (part.width === whole?.width && part.height === whole.height)).toBe(true);
    },
  );

  test.prop([fc.constantFrom(PNG, JPEG, WEBP_LOSSY, WEBP_LOSSLESS, WEBP_EXTENDED), fc.uint8Array({ maxLength: 4096 })])(
    'any bytes after an image’s first ones: an answer, never an error',
    (file, tail) => {
      const bytes = Buffer.concat([file.subarray(0, 12), tail]);
      const answer = imageSize(bytes);
      if (answer) expect(answer.width > 0 && answer.height > 0).toBe(true);
    },
  );
});

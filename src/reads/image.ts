import { decode } from 'jpeg-js';
import { errorMessage } from '../shared/error-message';
import { BundleReadError } from './errors';
import { token } from '../shared/quote';

/** Pixels as RGBA bytes, row by row. */
export interface RgbaImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/** Turns pixels into PNG bytes: the command line's `pngjs` (Node's zlib), a fake in tests. */
export type PngEncoder = (image: RgbaImage) => Uint8Array;

/**
 * Bounds of a decode: a frame is a screenshot (1280×720 is 0.9 MP; a 4K screen 8.3 MP). A JPEG header
 * claiming more is refused before its pixels are allocated.
 */
const MAX_MEGAPIXELS = 40;
const MAX_DECODE_MB = 512;

/** Decodes a JPEG to RGBA; throws `BundleReadError` naming `name` when it is not a JPEG or is past the bounds. */
export function decodeJpeg(bytes: Uint8Array, name: string): RgbaImage {
  try {
    const { width, height, data } = decode(bytes, { useTArray: true, formatAsRGBA: true, maxResolutionInMP: MAX_MEGAPIXELS, maxMemoryUsageInMB: MAX_DECODE_MB });
    return { width, height, data };
  } catch (error) {
    throw new BundleReadError(`${token(name)} cannot be decoded as a JPEG (${errorMessage(error)})`);
  }
}

/**
 * `image` scaled down to `width` (kept when it is narrower already), the height in proportion: each
 * pixel is the average of the source pixels it covers (a box filter), so small text stays legible
 * rather than aliased.
 */
export function downscale(image: RgbaImage, width: number): RgbaImage {
  if (width >= image.width) return image;
  const w = Math.max(1, Math.round(width));
  const h = Math.max(1, Math.round((image.height * w) / image.width));
  const sums = new Float64Array(w * h * 4);
  const counts = new Float64Array(w * h);
  // Each source pixel adds to the one destination pixel it falls in: one pass over the source.
  for (let y = 0; y < image.height; y += 1) {
    const dy = Math.min(h - 1, Math.floor((y * h) / image.height));
    for (let x = 0; x < image.width; x += 1) {
      const dx = Math.min(w - 1, Math.floor((x * w) / image.width));
      const d = dy * w + dx;
      const s = (y * image.width + x) * 4;
      for (let c = 0; c < 4; c += 1) sums[d * 4 + c] = sums[d * 4 + c]! + image.data[s + c]!;
      counts[d] = counts[d]! + 1;
    }
  }
  const data = new Uint8Array(w * h * 4);
  for (let d = 0; d < w * h; d += 1) {
    const n = counts[d] || 1;
    for (let c = 0; c < 4; c += 1) data[d * 4 + c] = Math.round(sums[d * 4 + c]! / n);
  }
  return { width: w, height: h, data };
}

/** Narrowest a frame is made to fit its byte bound; below it the PNG is returned as it is. */
const MIN_WIDTH = 160;

/**
 * PNG of `image` at most `maxWidth` wide and, where it can be, at most `maxBytes`: a PNG past the
 * bound is made again at three quarters of the width until it fits or reaches 160 px.
 */
export function boundedPng(image: RgbaImage, maxWidth: number, maxBytes: number, encode: PngEncoder): { image: RgbaImage; png: Uint8Array } {
  let scaled = downscale(image, maxWidth);
  let png = encode(scaled);
  while (png.byteLength > maxBytes && scaled.width > MIN_WIDTH) {
    scaled = downscale(image, Math.max(MIN_WIDTH, Math.floor(scaled.width * 0.75)));
    png = encode(scaled);
  }
  return { image: scaled, png };
}

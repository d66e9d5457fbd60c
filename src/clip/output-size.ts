import { readJpegSize, type Size } from '../shared/jpeg-size';

/**
 * Longest side of an encoded clip. A HiDPI capture (2560×1600 and up) would make the wasm encoder
 * several times slower for detail nobody needs to see what went wrong.
 */
export const MAX_CLIP_LONG_SIDE = 1920;

const floorEven = (value: number) => Math.max(2, Math.floor(value / 2) * 2);

/**
 * Picks the clip's frame size from the LAST frame (the moment of failure is what matters, and the
 * window may have been resized before it): even width and height, as yuv420p / H.264 require, at most
 * `maxLongSide` on the long side. Frames of other sizes are scaled to fit and padded (see `buildVideoFilter`).
 */
export function chooseOutputSize(last: Size, maxLongSide: number = MAX_CLIP_LONG_SIDE): Size {
  const longSide = Math.max(last.width, last.height);
  // Multiply before dividing so the long side comes out exact (2532 × 1920 / 2532, not 2532 × 0.7582…).
  const fit = (side: number) => floorEven(longSide > maxLongSide ? (side * maxLongSide) / longSide : side);
  return { width: fit(last.width), height: fit(last.height) };
}

/**
 * The size of a clip of these frames: `chooseOutputSize` of the last one. Throws when there is no frame
 * or the last one is not a readable JPEG (every encoder refuses the same way).
 */
export function clipOutputSize(frames: readonly { jpeg: Uint8Array }[]): Size {
  const last = frames.at(-1);
  if (!last) throw new Error('a clip needs at least one frame');
  const size = readJpegSize(last.jpeg);
  if (!size) throw new Error('the last frame is not a readable JPEG');
  return chooseOutputSize(size);
}

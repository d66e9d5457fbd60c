import type { Size } from '../shared/jpeg-size';

/** Where a frame lands in the clip: a source rectangle drawn into a destination rectangle (pixels). */
export interface DrawRect {
  sx: number;
  sy: number;
  sw: number;
  sh: number;
  dx: number;
  dy: number;
  dw: number;
  dh: number;
}

const floorEven = (value: number) => Math.max(2, Math.floor(value / 2) * 2);

/**
 * The geometry of `buildVideoFilter` (the ffmpeg path), so both encoders place frames alike: drop an odd
 * last row/column, scale to fit `out` keeping the aspect ratio (even size), centre, pad the rest black.
 */
export function letterbox(frame: Size, out: Size): DrawRect {
  const sw = floorEven(frame.width);
  const sh = floorEven(frame.height);
  // ffmpeg's force_original_aspect_ratio=decrease: the smaller of the two fits, then force_divisible_by=2.
  const dw = floorEven(Math.min(out.width, Math.round((out.height * sw) / sh)));
  const dh = floorEven(Math.min(out.height, Math.round((out.width * sh) / sw)));
  // pad=(ow-iw)/2:(oh-ih)/2, rounded down to the chroma grid.
  const dx = Math.floor((out.width - dw) / 4) * 2;
  const dy = Math.floor((out.height - dh) / 4) * 2;
  return { sx: 0, sy: 0, sw, sh, dx, dy, dw, dh };
}

/** True when the frame, once fitted, covers the whole clip: no padding, only a scale (or nothing at all). */
export function fillsOutput(frame: Size, out: Size): boolean {
  const { dw, dh } = letterbox(frame, out);
  return dw === out.width && dh === out.height;
}

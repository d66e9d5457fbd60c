import type { FrameViewport } from '../../schemas/manifest';
import { nearestFrame } from '../bundle-format/frame-time';
import { frameOfStep } from '../bundle-format/story';
import { msFromFailure } from '../bundle-format/views';
import { token } from '../shared/quote';
import { BundleReadError } from './errors';
import { boundedPng, decodeJpeg, type PngEncoder } from './image';
import type { BundleReader } from './open-bundle';

/** Which frame to read: by its 1-based index, the one nearest a moment (ms from the failure), or a step's (the screen at its time). */
export type FramePick = { index: number } | { atMs: number } | { step: number };

export interface FrameOptions {
  /** Widest the PNG may be; narrower frames keep their width. Default 1024. */
  maxWidth: number;
  /** Most bytes the PNG should take; past it the frame is scaled down further (not below 160 px). Default 1 MB. */
  maxBytes: number;
}

export const DEFAULT_FRAME_OPTIONS: FrameOptions = { maxWidth: 1024, maxBytes: 1024 * 1024 };

/** Largest frame file the reads decode (a 4K JPEG at high quality is a few megabytes). */
const MAX_JPEG_BYTES = 32 * 1024 * 1024;

/** One frame, decoded to PNG and scaled to the bounds. */
export interface FrameView {
  /** 1-based, as `manifest.frames` lists them. */
  index: number;
  count: number;
  name: string;
  /** Milliseconds from the failure to the capture (negative: before it). */
  at_ms: number;
  width: number;
  height: number;
  /** The frame as captured. */
  source_width: number;
  source_height: number;
  /**
   * The viewport the frame shows (CSS px), when the bundle says it: a step's target lands on the
   * captured frame at CSS px × `image_scale` (else × `source_width` / `width` of the viewport), and on
   * the PNG at that × `width` / `source_width`.
   */
  viewport?: FrameViewport;
  png: Uint8Array;
}

/** The 0-based index of the frame `pick` names; throws `BundleReadError` when there is none. */
export async function pickFrame(reader: BundleReader, pick: FramePick): Promise<number> {
  const frames = reader.manifest.frames;
  if (frames.length === 0) throw new BundleReadError('the bundle has no frames', 'argument');
  if ('index' in pick) {
    if (!Number.isInteger(pick.index) || pick.index < 1 || pick.index > frames.length) {
      throw new BundleReadError(`frame ${pick.index} is out of range: the bundle has ${frames.length} frame${frames.length === 1 ? '' : 's'} (1 to ${frames.length})`, 'argument');
    }
    return pick.index - 1;
  }
  if ('atMs' in pick) {
    if (!Number.isFinite(pick.atMs)) throw new BundleReadError(`--at needs milliseconds from the failure (got ${pick.atMs})`, 'argument');
    return nearestFrame(frames, reader.failureTs + pick.atMs);
  }
  const steps = await reader.steps();
  const step = Number.isInteger(pick.step) ? steps[pick.step - 1] : undefined;
  if (!step || pick.step < 1) throw new BundleReadError(`step ${pick.step} is out of range: the bundle has ${steps.length} step${steps.length === 1 ? '' : 's'} (1 to ${steps.length})`, 'argument');
  return frameOfStep(frames, step);
}

/**
 * The frame `pick` names, decoded and made a PNG within `options`. Only that frame's JPEG is inflated.
 * @example const frame = await readFrame(reader, { step: 12 }, DEFAULT_FRAME_OPTIONS, encodePng)
 */
export async function readFrame(reader: BundleReader, pick: FramePick, options: FrameOptions, encode: PngEncoder): Promise<FrameView> {
  const at = await pickFrame(reader, pick);
  const frame = reader.manifest.frames[at]!;
  const declared = reader.archive.declaredBytes(frame.name);
  if (declared === undefined) throw new BundleReadError(`${token(frame.name)} is listed in manifest.json but missing from the zip`);
  if (declared > MAX_JPEG_BYTES) throw new BundleReadError(`${token(frame.name)} declares ${declared} bytes, more than the ${MAX_JPEG_BYTES} afr decodes`);
  const jpeg = (await reader.archive.read(frame.name))!;
  const decoded = decodeJpeg(jpeg, frame.name);
  const { image, png } = boundedPng(decoded, options.maxWidth, options.maxBytes, encode);
  return {
    index: at + 1,
    count: reader.manifest.frames.length,
    name: frame.name,
    at_ms: msFromFailure(reader.failureTs, frame.ts),
    width: image.width,
    height: image.height,
    source_width: decoded.width,
    source_height: decoded.height,
    ...(frame.viewport ? { viewport: frame.viewport } : {}),
    png,
  };
}

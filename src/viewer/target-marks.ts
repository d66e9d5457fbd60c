import type { Rect } from '../../schemas/snapshot';
import type { Step } from '../../schemas/steps';

/** What the frame shows of a step's target, in the frame's own pixels. */
export interface TargetMarks {
  /** The element's box. */
  rect: Rect | null;
  /** Where the pointer hit (pointer actions). */
  point: { x: number; y: number } | null;
  /** Image pixels per CSS pixel: the marks' own sizes scale with it. */
  scale: number;
}

/**
 * A viewport in CSS pixels: a frame's own (`manifest.frames[].viewport`, with `image_scale` when the
 * recorder knew how the frame draws it) or `snapshot.json`'s for frames that do not say theirs.
 */
export interface ViewportSize {
  width: number;
  height: number;
  /** Image px per CSS px of the frame it belongs to. */
  image_scale?: number;
}

/**
 * Maps a step's target (rect and point in CSS px of the viewport, as the content script measured
 * them) onto a frame of `frameWidth` image px. The scale is the viewport's `image_scale` when it has
 * one (a frame that said how it draws the page: a window narrower or wider than an emulated
 * viewport), else the frame's width over the viewport's: a frame shows the viewport scaled uniformly
 * (`captureVisibleTab`: CSS px × device pixel ratio; a screencast scaled down to fit), or its top at
 * device pixels. Without a known viewport, 1 image px per CSS px. Null when the step carries neither
 * a rect nor a point.
 * @example targetMarks({ rect: { x: 10, y: 20, width: 100, height: 30 } }, 2560, { width: 1280, height: 720 }) // rect 20,40 200×60
 */
export function targetMarks(target: Step['target'], frameWidth: number, viewport: ViewportSize | null): TargetMarks | null {
  if (target === null || typeof target === 'string' || (!target.rect && !target.point)) return null;
  const scale = scaleOf(frameWidth, viewport);
  const rect = target.rect ? { x: target.rect.x * scale, y: target.rect.y * scale, width: target.rect.width * scale, height: target.rect.height * scale } : null;
  const point = target.point ? { x: target.point.x * scale, y: target.point.y * scale } : null;
  return { rect, point, scale };
}

/** Image px per CSS px (see `targetMarks`); values that are not positive and finite are not used. */
function scaleOf(frameWidth: number, viewport: ViewportSize | null): number {
  const usable = (n: number | undefined): n is number => n !== undefined && Number.isFinite(n) && n > 0;
  if (usable(viewport?.image_scale)) return viewport.image_scale;
  return usable(viewport?.width) && usable(frameWidth) ? frameWidth / viewport.width : 1;
}

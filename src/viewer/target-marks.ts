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

/** A viewport size in CSS pixels. */
export interface ViewportSize {
  width: number;
  height: number;
}

/**
 * Maps a step's target (rect and point in CSS px of the viewport, as the content script measured
 * them) onto a frame of `frameWidth` image px. A frame shows the viewport scaled uniformly
 * (`captureVisibleTab`: CSS px × device pixel ratio; a screencast scaled down to fit), so the scale is
 * the frame's width over the viewport's; without a known viewport, 1 image px per CSS px. Null when the
 * step carries neither a rect nor a point.
 * @example targetMarks({ rect: { x: 10, y: 20, width: 100, height: 30 } }, 2560, { width: 1280, height: 720 }) // rect 20,40 200×60
 */
export function targetMarks(target: Step['target'], frameWidth: number, viewport: ViewportSize | null): TargetMarks | null {
  if (target === null || typeof target === 'string' || (!target.rect && !target.point)) return null;
  const scale = viewport && viewport.width > 0 ? frameWidth / viewport.width : 1;
  const rect = target.rect ? { x: target.rect.x * scale, y: target.rect.y * scale, width: target.rect.width * scale, height: target.rect.height * scale } : null;
  const point = target.point ? { x: target.point.x * scale, y: target.point.y * scale } : null;
  return { rect, point, scale };
}

/**
 * A rectangle in the top document's viewport, CSS px (the `redaction/rects` message's shape); `id`:
 * what it shows (the same node gets the same id in every report of the document).
 */
export interface ViewportRect {
  x: number;
  y: number;
  width: number;
  height: number;
  id?: number;
}

/** Edges of a rectangle. */
export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** The part of `box` inside `clip`, or null when nothing of it is. */
export function clipBox(box: Box, clip: Box): Box | null {
  const left = Math.max(box.left, clip.left);
  const top = Math.max(box.top, clip.top);
  const right = Math.min(box.right, clip.right);
  const bottom = Math.min(box.bottom, clip.bottom);
  return right > left && bottom > top ? { left, top, right, bottom } : null;
}

/** The smallest whole-pixel rect that covers `box`. */
export function roundOut(box: Box): ViewportRect {
  const x = Math.floor(box.left);
  const y = Math.floor(box.top);
  return { x, y, width: Math.ceil(box.right) - x, height: Math.ceil(box.bottom) - y };
}

/** The smallest rect covering both (with no `id`). */
export function union(a: ViewportRect, b: ViewportRect): ViewportRect {
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return { x, y, width: Math.max(a.x + a.width, b.x + b.width) - x, height: Math.max(a.y + a.height, b.y + b.height) - y };
}

/**
 * At most `max` rects covering at least what `rects` cover: past the limit, rects are sorted top to
 * bottom and neighbours merged pairwise into their bounding box (with no `id`: it shows several
 * nodes) until few enough remain. Covering more is safe; leaving a sensitive rect out is not.
 */
export function capRects(rects: ViewportRect[], max: number): ViewportRect[] {
  if (rects.length <= max) return rects;
  let merged = [...rects].sort((a, b) => a.y - b.y || a.x - b.x);
  while (merged.length > Math.max(1, max)) {
    const next: ViewportRect[] = [];
    for (let i = 0; i < merged.length; i += 2) next.push(i + 1 < merged.length ? union(merged[i]!, merged[i + 1]!) : merged[i]!);
    merged = next;
  }
  return merged;
}

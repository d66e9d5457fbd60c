import type { Rect } from '../../../schemas/snapshot';

/**
 * The element's box in the top page's viewport (CSS pixels, rounded): inside a same-origin iframe
 * the frames' offsets are added, as `takeSnapshot` does for its rects. Null when it cannot be read.
 */
export function targetRect(el: Element): Rect | null {
  try {
    const r = el.getBoundingClientRect();
    let x = r.left;
    let y = r.top;
    let view = el.ownerDocument.defaultView;
    while (view && view !== view.parent) {
      const frame = view.frameElement;
      if (!frame) break;
      const f = frame.getBoundingClientRect();
      x += f.left + frame.clientLeft;
      y += f.top + frame.clientTop;
      view = frame.ownerDocument.defaultView;
    }
    return { x: Math.round(x), y: Math.round(y), width: Math.round(r.width), height: Math.round(r.height) };
  } catch {
    return null;
  }
}

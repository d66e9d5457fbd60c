import { describe, expect, it } from 'vitest';
import { capRects, clipBox, roundOut, type ViewportRect } from './viewport-rect';

describe('viewport rects', () => {
  it('clips a box to another, or gives null when they do not overlap', () => {
    const viewport = { left: 0, top: 0, right: 1280, bottom: 720 };
    expect(clipBox({ left: -10, top: 700, right: 50, bottom: 760 }, viewport)).toEqual({ left: 0, top: 700, right: 50, bottom: 720 });
    expect(clipBox({ left: 0, top: 720, right: 50, bottom: 760 }, viewport)).toBeNull();
    expect(clipBox({ left: 10, top: 10, right: 10, bottom: 20 }, viewport)).toBeNull();
  });

  it('rounds outwards to whole pixels', () => {
    expect(roundOut({ left: 10.4, top: 20.6, right: 110.6, bottom: 40.1 })).toEqual({ x: 10, y: 20, width: 101, height: 21 });
  });

  it('leaves few rects alone and merges many into fewer that still cover all of them', () => {
    const rects: ViewportRect[] = Array.from({ length: 101 }, (_, i) => ({ x: (i * 37) % 1000, y: i * 7, width: 30, height: 10 }));
    expect(capRects(rects.slice(0, 5), 5)).toEqual(rects.slice(0, 5));
    const capped = capRects(rects, 10);
    expect(capped.length).toBeLessThanOrEqual(10);
    const covered = (r: ViewportRect) =>
      capped.some((c) => c.x <= r.x && c.y <= r.y && c.x + c.width >= r.x + r.width && c.y + c.height >= r.y + r.height);
    expect(rects.every(covered)).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { targetMarks } from './target-marks';

const rect = { x: 10, y: 20, width: 100, height: 30 };
const point = { x: 60, y: 35 };
const target = { tag: 'button', selector: '#go', rect, point };

describe('targetMarks', () => {
  it.each([
    ['same size as the viewport', 1280, { width: 1280, height: 720 }, 1],
    ['device pixel ratio 2 (captureVisibleTab)', 2560, { width: 1280, height: 720 }, 2],
    ['a screencast scaled down to fit', 640, { width: 1280, height: 720 }, 0.5],
    ['an unknown viewport: 1 image px per CSS px', 1920, null, 1],
  ])('maps CSS px onto the frame: %s', (_, frameWidth, viewport, scale) => {
    expect(targetMarks(target, frameWidth, viewport)).toEqual({
      rect: { x: rect.x * scale, y: rect.y * scale, width: rect.width * scale, height: rect.height * scale },
      point: { x: point.x * scale, y: point.y * scale },
      scale,
    });
  });

  it.each([
    ['an emulated 1000 px viewport drawn at 1 image px per CSS px in a 1280 px frame', 1280, { width: 1000, height: 600, image_scale: 1 }, 1],
    ['a page zoomed to 150 %', 780, { width: 520, height: 291, image_scale: 1.5 }, 1.5],
    ['a scale that is not usable: the width ratio', 2560, { width: 1280, height: 720, image_scale: 0 }, 2],
    ['a width that is not usable: 1 image px per CSS px', 1280, { width: 0, height: 720 }, 1],
  ])('takes the frame’s own image scale when its viewport has one: %s', (_, frameWidth, viewport, scale) => {
    expect(targetMarks(target, frameWidth, viewport)?.scale).toBe(scale);
    expect(targetMarks(target, frameWidth, viewport)?.point).toEqual({ x: point.x * scale, y: point.y * scale });
  });

  it('has nothing to draw for a step without a place: no target, an agent string, a target without rect or point', () => {
    expect(targetMarks(null, 1280, null)).toBeNull();
    expect(targetMarks('the search box', 1280, null)).toBeNull();
    expect(targetMarks({ tag: 'input', selector: '#q' }, 1280, null)).toBeNull();
    expect(targetMarks({ tag: 'input', selector: '#q', rect }, 1280, null)).toEqual({ rect, point: null, scale: 1 });
  });
});

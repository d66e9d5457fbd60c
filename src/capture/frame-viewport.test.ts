import { describe, expect, it } from 'vitest';
import type { SensitiveRectsMessage } from '../../schemas/messages';
import { frameViewport } from './frame-viewport';

const FIELD = { x: 100, y: 150, width: 220, height: 44 };

/** The page's report: its viewport (CSS px), pixel ratio, scroll and visual viewport. */
function report(viewport: { width: number; height: number }, dpr: number, extra: Partial<SensitiveRectsMessage> = {}): SensitiveRectsMessage {
  return { type: 'redaction/rects', ts: 0, url: 'https://shop.test/', viewport, device_pixel_ratio: dpr, rects: [FIELD], ...extra };
}

describe('frameViewport', () => {
  it('has no viewport without a report of the page', () => {
    expect(frameViewport(undefined, { imageWidth: 1280, imageHeight: 720, surface: { width: 1280, height: 720 }, zoom: 1 })).toBeUndefined();
  });

  // The rows of the measurements in `mask-plan.ts` (`fitOf`): what each capture path gives on Chromium 156.
  it.each([
    {
      label: 'captureVisibleTab at device pixel ratio 2: two image px per CSS px',
      report: report({ width: 1280, height: 720 }, 2),
      facts: { imageWidth: 2560, imageHeight: 1440, surface: { width: 1280, height: 720 }, zoom: 1 },
      expected: { width: 1280, height: 720, device_pixel_ratio: 2, image_scale: 2 },
    },
    {
      label: 'a window resized to 1000×557: the new viewport, one image px per CSS px',
      report: report({ width: 1000, height: 557 }, 1),
      facts: { imageWidth: 1000, imageHeight: 557, surface: { width: 1000, height: 557 }, zoom: 1 },
      expected: { width: 1000, height: 557, device_pixel_ratio: 1, image_scale: 1 },
    },
    {
      label: 'a screencast scaled down to fit: half an image px per CSS px',
      report: report({ width: 1280, height: 720 }, 1),
      facts: { imageWidth: 640, imageHeight: 360, surface: { width: 1280, height: 720, pageScale: 1 }, zoom: 1 },
      expected: { width: 1280, height: 720, device_pixel_ratio: 1, image_scale: 0.5 },
    },
    {
      label: 'an emulated 800×600 viewport in a 780×437 window: its top left at one image px per CSS px (not 780/800), 780×437 of it shown',
      report: report({ width: 800, height: 600 }, 1),
      facts: { imageWidth: 780, imageHeight: 437, surface: { width: 780, height: 437 }, zoom: 1 },
      expected: { width: 800, height: 600, device_pixel_ratio: 1, image_scale: 1, shown: { width: 780, height: 437 } },
    },
    {
      label: 'the page zoomed to 150 %: 1.5 image px per CSS px',
      report: report({ width: 520, height: 291 }, 1.5),
      facts: { imageWidth: 780, imageHeight: 437, surface: { width: 780, height: 437 }, zoom: 1.5 },
      expected: { width: 520, height: 291, device_pixel_ratio: 1.5, image_scale: 1.5 },
    },
    {
      label: 'a mobile page shown zoomed out: the screencast frame\u2019s page scale',
      report: report({ width: 980, height: 2121 }, 2, { visual_viewport: { width: 980, height: 2121, offset_x: 0, offset_y: 0, scale: 0.398 } }),
      facts: { imageWidth: 780, imageHeight: 437, surface: { width: 780, height: 437, pageScale: 0.398 }, zoom: 1 },
      expected: { width: 980, height: 2121, device_pixel_ratio: 2, image_scale: 0.398, shown: { width: 980, height: 1097.99 } },
    },
    {
      label: 'the zoom not known yet: no image scale (readers use the width ratio)',
      report: report({ width: 1280, height: 720 }, 1),
      facts: { imageWidth: 1280, imageHeight: 720, surface: { width: 1280, height: 720 } },
      expected: { width: 1280, height: 720, device_pixel_ratio: 1 },
    },
    {
      label: 'a screenshot of another shape than the tab\u2019s last surface (resized since): no image scale, the width ratio says what it shows',
      report: report({ width: 1280, height: 720 }, 1),
      facts: { imageWidth: 1000, imageHeight: 557, surface: { width: 1280, height: 720 }, zoom: 1 },
      expected: { width: 1280, height: 720, device_pixel_ratio: 1, shown: { width: 1280, height: 712.96 } },
    },
    {
      label: 'the top of an emulated 1280×720 viewport in a window the debugger infobar shortened: 1280×577 of it shown',
      report: report({ width: 1280, height: 720 }, 1),
      facts: { imageWidth: 1280, imageHeight: 577, surface: { width: 1280, height: 577, pageScale: 1 }, zoom: 1 },
      expected: { width: 1280, height: 720, device_pixel_ratio: 1, image_scale: 1, shown: { width: 1280, height: 577 } },
    },
    {
      label: 'a 1024×700 viewport at scale 2 in a window 557 DIPs high: 1024×557 of it shown',
      report: report({ width: 1024, height: 700 }, 2),
      facts: { imageWidth: 2048, imageHeight: 1114, surface: { width: 1024, height: 557, pageScale: 1 }, zoom: 1 },
      expected: { width: 1024, height: 700, device_pixel_ratio: 2, image_scale: 2, shown: { width: 1024, height: 557 } },
    },
  ])('$label', ({ report: r, facts, expected }) => {
    expect(frameViewport(r, facts)).toEqual(expected);
  });

  it('takes the scroll from the screencast frame (DIPs, made CSS px by the zoom), else from a report with regions', () => {
    const zoomed = report({ width: 520, height: 291 }, 1.5, { scroll: { x: 0, y: 90 } });
    const cast = { imageWidth: 780, imageHeight: 437, surface: { width: 780, height: 437, scroll: { x: 0, y: 300 }, pageScale: 1 }, zoom: 1.5 };
    expect(frameViewport(zoomed, cast)?.scroll).toEqual({ x: 0, y: 200 });
    const capture = { imageWidth: 780, imageHeight: 437, surface: { width: 780, height: 437 }, zoom: 1.5 };
    expect(frameViewport(zoomed, capture)?.scroll).toEqual({ x: 0, y: 90 });
    // A page without regions does not report again when it scrolls: its last scroll is not the frame's.
    expect(frameViewport({ ...zoomed, rects: [] }, capture)?.scroll).toBeUndefined();
  });
});

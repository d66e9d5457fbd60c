import { describe, expect, it } from 'vitest';
import { SensitiveRectsMessageSchema, type SensitiveRectsMessage } from '../../schemas/messages';
import { SensitiveRegions, type FrameShown, type ImageRect } from './mask-plan';

/**
 * The shapes measured on Chromium 156 headless (see `fitOf`): what the page reports, what the frame
 * says it shows, and where the password field (CSS 100,150 208×46) was seen in the image.
 */
interface Fixture {
  name: string;
  inner: { width: number; height: number };
  dpr: number;
  visual: { width: number; height: number; scale: number };
  image: { width: number; height: number };
  /** The tab's surface in DIPs (screencast `deviceWidth`×`deviceHeight`, the tab's size). */
  surface: { width: number; height: number };
  pageScale: number;
  zoom: number;
  /** The field's CSS rect, when not `FIELD` (one the window shows). */
  field?: { x: number; y: number; width: number; height: number };
  /** Where the field was in the image (px), measured. */
  seenAt: { x: number; y: number; width: number; height: number };
}

const FIELD = { x: 100, y: 150, width: 208, height: 46 };

const FIXTURES: Fixture[] = [
  {
    name: 'Puppeteer default (800×600 emulated in a 780×437 window)',
    inner: { width: 800, height: 600 },
    dpr: 1,
    visual: { width: 800, height: 600, scale: 1 },
    image: { width: 780, height: 437 },
    surface: { width: 780, height: 437 },
    pageScale: 1,
    zoom: 1,
    seenAt: { x: 100, y: 150, width: 208, height: 46 },
  },
  {
    name: 'defaultViewport: null (nothing emulated)',
    inner: { width: 780, height: 437 },
    dpr: 1,
    visual: { width: 780, height: 437, scale: 1 },
    image: { width: 780, height: 437 },
    surface: { width: 780, height: 437 },
    pageScale: 1,
    zoom: 1,
    seenAt: { x: 100, y: 150, width: 208, height: 46 },
  },
  {
    name: 'mobile 390×844 at scale 2, a 980 px wide page zoomed out',
    inner: { width: 980, height: 2121 },
    dpr: 2,
    visual: { width: 980, height: 2120.82, scale: 0.3979591727256775 },
    image: { width: 780, height: 437 },
    surface: { width: 780, height: 437 },
    pageScale: 0.3979591727256775,
    zoom: 1,
    seenAt: { x: 40, y: 60, width: 83, height: 18 },
  },
  {
    name: 'emulated larger than the window (1600×1200)',
    inner: { width: 1600, height: 1200 },
    dpr: 1,
    visual: { width: 1600, height: 1200, scale: 1 },
    image: { width: 780, height: 437 },
    surface: { width: 780, height: 437 },
    pageScale: 1,
    zoom: 1,
    seenAt: { x: 100, y: 150, width: 208, height: 46 },
  },
  {
    name: 'Puppeteer default with browser zoom 150 %',
    inner: { width: 533, height: 400 },
    dpr: 1.5,
    visual: { width: 533.33, height: 400, scale: 1 },
    image: { width: 780, height: 437 },
    surface: { width: 780, height: 437 },
    pageScale: 1,
    zoom: 1.5,
    seenAt: { x: 150, y: 225, width: 312, height: 69 },
  },
  {
    name: 'Puppeteer default on a 2× screen (window 500×137 DIPs; the blue box at CSS 400,20 was seen at 750–790, 40–80)',
    field: { x: 100, y: 20, width: 208, height: 46 },
    inner: { width: 800, height: 600 },
    dpr: 1,
    visual: { width: 800, height: 600, scale: 1 },
    image: { width: 1000, height: 274 },
    surface: { width: 500, height: 137 },
    pageScale: 1,
    zoom: 1,
    seenAt: { x: 200, y: 40, width: 416, height: 92 },
  },
];

function reportOf(f: Pick<Fixture, 'inner' | 'dpr' | 'visual'>, rects = [FIELD]): SensitiveRectsMessage {
  return SensitiveRectsMessageSchema.parse({
    type: 'redaction/rects',
    ts: 1,
    url: 'https://shop.test/login',
    viewport: f.inner,
    device_pixel_ratio: f.dpr,
    rects,
    scroll: { x: 0, y: 0 },
    visual_viewport: { ...f.visual, offset_x: 0, offset_y: 0 },
  });
}

/** Whether `mask` covers `seen` entirely (the field as the image shows it). */
function covers(mask: ImageRect, seen: ImageRect): boolean {
  return mask.x <= seen.x && mask.y <= seen.y && mask.x + mask.width >= seen.x + seen.width && mask.y + mask.height >= seen.y + seen.height;
}

/** A tab whose frames said `surface` before the page reported (the order in which the recorder sees them). */
function tabShowing(surface: FrameShown, report: SensitiveRectsMessage): SensitiveRegions {
  const regions = new SensitiveRegions();
  regions.noteShown(1, surface);
  regions.update(1, report);
  return regions;
}

describe('SensitiveRegions: frames of a viewport the driver emulates', () => {
  it.each(FIXTURES)('$name: the mask covers the field where the image shows it', (f) => {
    const shown = { ...f.surface, pageScale: f.pageScale };
    const rects = tabShowing(shown, reportOf(f, [f.field ?? FIELD])).plan(1, f.image.width, f.image.height, shown, undefined, f.zoom);
    expect(rects).toHaveLength(1);
    expect(covers(rects![0]!, f.seenAt)).toBe(true);
    // Not a blanket over the frame either: the mask hugs the field.
    expect(rects![0]!.width).toBeLessThan(f.seenAt.width + 20);
  });

  it('without the zoom known, a Puppeteer default frame is dropped as a viewport mismatch, never stored unmasked', () => {
    const f = FIXTURES[0]!;
    const regions = tabShowing(f.surface, reportOf(f));
    expect(regions.planOrDrop(1, 780, 437, f.surface)).toEqual({ drop: 'viewport-mismatch' });
  });

  it('a screencast downscaled to fit maxWidth places the field at the same fraction of the image', () => {
    const f = FIXTURES[3]!; // 1600×1200 emulated in a window of 1920×1080 DIPs, frames scaled to 1280×720
    const surface = { width: 1920, height: 1080, pageScale: 1 };
    const rects = tabShowing(surface, reportOf(f)).plan(1, 1280, 720, surface, undefined, 1)!;
    expect(covers(rects[0]!, { x: 67, y: 100, width: 138, height: 30 })).toBe(true);
  });

  it('keeps at least the minimum padding when the page is scaled far down', () => {
    const f = FIXTURES[2]!;
    const shown = { ...f.surface, pageScale: f.pageScale };
    const [r] = tabShowing(shown, reportOf(f, [{ x: 500, y: 500, width: 10, height: 10 }])).plan(1, 780, 437, shown, undefined, 1)!;
    // 500 CSS px × 0.398 = 199 image px: the margin is 2 px however small 4 CSS px became.
    expect(r!.x).toBeLessThanOrEqual(Math.floor(500 * f.pageScale) - 2);
    expect(r!.y).toBeLessThanOrEqual(Math.floor(500 * f.pageScale) - 2);
  });

  it('a frame drawn at another page scale than the report measured (pinch zoom since) is dropped', () => {
    const f = FIXTURES[2]!;
    const regions = tabShowing({ ...f.surface, pageScale: f.pageScale }, reportOf(f));
    expect(regions.planOrDrop(1, 780, 437, { ...f.surface, pageScale: 1 }, undefined, 1)).toEqual({ drop: 'viewport-mismatch' });
  });

  it('an image whose shape is not the surface it says (another window) is dropped', () => {
    const f = FIXTURES[0]!;
    const regions = tabShowing(f.surface, reportOf(f));
    expect(regions.planOrDrop(1, 780, 600, f.surface, undefined, 1)).toEqual({ drop: 'viewport-mismatch' });
  });

  it('a report made before the tab showed any frame is used only when its viewport fills the surface (nothing emulated)', () => {
    const plain = new SensitiveRegions();
    plain.update(1, reportOf(FIXTURES[1]!));
    expect(plain.plan(1, 780, 437, FIXTURES[1]!.surface, undefined, 1)).toHaveLength(1);
    const emulated = new SensitiveRegions();
    emulated.update(1, reportOf(FIXTURES[0]!));
    expect(emulated.planOrDrop(1, 780, 437, FIXTURES[0]!.surface, undefined, 1)).toEqual({ drop: 'viewport-mismatch' });
  });

  describe('a window resized mid-run', () => {
    const before = FIXTURES[1]!; // 780×437, nothing emulated
    const after = { inner: { width: 1000, height: 557 }, dpr: 1, visual: { width: 1000, height: 557, scale: 1 } };

    it('forgets the reports of the old window at the first frame of the new one, and masks with the next report', () => {
      const regions = tabShowing(before.surface, reportOf(before));
      expect(regions.plan(1, 780, 437, before.surface, undefined, 1)).toHaveLength(1);
      // The first frame of the resized window: the old layout's report is gone, the frame dropped.
      expect(regions.noteShown(1, { width: 1000, height: 557 })).toBe(true);
      expect(regions.planOrDrop(1, 1000, 557, { width: 1000, height: 557 }, undefined, 1)).toEqual({ drop: 'no-report' });
      // The field moved with the new layout (centred): the new report puts the mask on it.
      regions.update(1, reportOf(after, [{ x: 396, y: 150, width: 208, height: 46 }]));
      const [r] = regions.plan(1, 1000, 557, { width: 1000, height: 557 }, undefined, 1)!;
      expect(covers(r!, { x: 396, y: 150, width: 208, height: 46 })).toBe(true);
    });

    it('does not apply a report made under the old surface to a frame of the new one', () => {
      const regions = tabShowing(before.surface, reportOf(before));
      // A frame of the resized window that did not go through noteShown (a CDP screenshot).
      expect(regions.planOrDrop(1, 1000, 557, { width: 1000, height: 557 }, undefined, 1)).toEqual({ drop: 'viewport-mismatch' });
    });

    it('under emulation, the viewport stays put: the resized window shows more of it, masked with the next report', () => {
      const f = FIXTURES[0]!;
      const regions = tabShowing(f.surface, reportOf(f));
      regions.noteShown(1, { width: 1000, height: 557 });
      regions.update(1, reportOf(f));
      const [r] = regions.plan(1, 1000, 557, { width: 1000, height: 557 }, undefined, 1)!;
      expect(covers(r!, f.seenAt)).toBe(true);
    });
  });

  it('places rects by the visual viewport offset (a pinch-zoomed page panned)', () => {
    const f = FIXTURES[1]!;
    const report = SensitiveRectsMessageSchema.parse({
      ...reportOf(f),
      visual_viewport: { width: 390, height: 218.5, offset_x: 50, offset_y: 100, scale: 2 },
    });
    const shown = { ...f.surface, pageScale: 2 };
    const regions = new SensitiveRegions();
    regions.noteShown(1, shown);
    regions.update(1, report);
    const [r] = regions.plan(1, 780, 437, shown, undefined, 1)!;
    // (100 − 50) × 2 = 100, (150 − 100) × 2 = 100; 208×46 at scale 2.
    expect(covers(r!, { x: 100, y: 100, width: 416, height: 92 })).toBe(true);
  });
});

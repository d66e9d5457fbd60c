import { describe, expect, it } from 'vitest';
import { SensitiveRectsMessageSchema, type SensitiveRectsMessage } from '../../schemas/messages';
import { FRAME_LATENCY_MS, SensitiveRegions } from './mask-plan';

function report(rects: SensitiveRectsMessage['rects'], viewport = { width: 1280, height: 720 }, dpr = 1): SensitiveRectsMessage {
  return SensitiveRectsMessageSchema.parse({ type: 'redaction/rects', ts: 1, url: 'https://shop.test/', viewport, device_pixel_ratio: dpr, rects });
}

const FIELD = { x: 100, y: 200, width: 300, height: 40 };

describe('SensitiveRegions.plan', () => {
  it('is unknown (null) for a tab that never reported: the frame is dropped', () => {
    expect(new SensitiveRegions().plan(1, 1280, 720)).toBeNull();
  });

  it('is empty for a page with nothing sensitive, and counts nothing', () => {
    const regions = new SensitiveRegions();
    regions.update(1, report([]));
    expect(regions.plan(1, 1280, 720)).toEqual([]);
    expect(regions.maskedRegions).toBe(0);
  });

  it('pads each rect by 4 px at DPR 1', () => {
    const regions = new SensitiveRegions();
    regions.update(1, report([FIELD]));
    expect(regions.plan(1, 1280, 720)).toEqual([{ x: 96, y: 196, width: 308, height: 48 }]);
  });

  it('scales CSS px to image px at DPR 2, padding included', () => {
    const regions = new SensitiveRegions();
    regions.update(1, report([FIELD], { width: 1280, height: 720 }, 2));
    expect(regions.plan(1, 2560, 1440)).toEqual([{ x: 192, y: 392, width: 616, height: 96 }]);
  });

  it('scales fractional ratios outwards (zoomed page: 1164 CSS px wide, DPR 1.1)', () => {
    const regions = new SensitiveRegions();
    regions.update(1, report([{ x: 10.5, y: 20.25, width: 33.3, height: 17.7 }], { width: 1164, height: 655 }, 1.1));
    const [r] = regions.plan(1, 1280, 720)!;
    const sx = 1280 / 1164;
    const sy = 720 / 655;
    expect(r!.x).toBeLessThanOrEqual(10.5 * sx - 4);
    expect(r!.y).toBeLessThanOrEqual(20.25 * sy - 4);
    expect(r!.x + r!.width).toBeGreaterThanOrEqual((10.5 + 33.3) * sx + 4);
    expect(r!.y + r!.height).toBeGreaterThanOrEqual((20.25 + 17.7) * sy + 4);
    expect(Object.values(r!).every(Number.isInteger)).toBe(true);
  });

  it('also masks each rect where the scroll the frame shows moved it (the compositor scrolled ahead of the page)', () => {
    const regions = new SensitiveRegions();
    // Measured at scroll 0: one field in view, one 900 px below (outside the viewport, reported all the same).
    regions.update(1, { ...report([FIELD, { ...FIELD, y: 900 }]), scroll: { x: 0, y: 0 } });
    const shown = { width: 1280, height: 720, scroll: { x: 0, y: 600 } };
    expect(regions.plan(1, 1280, 720, shown)).toEqual([
      { x: 96, y: 196, width: 308, height: 48 }, // where it was (a fixed element would still be there)
      { x: 96, y: 296, width: 308, height: 48 }, // the one from below, scrolled into view
    ]);
    // A frame at the scroll the page measured at, or one that does not say: the rects as reported.
    expect(regions.plan(1, 1280, 720, { width: 1280, height: 720, scroll: { x: 0, y: 0 } })).toEqual([{ x: 96, y: 196, width: 308, height: 48 }]);
    expect(regions.plan(1, 1280, 720, { width: 1280, height: 720 })).toEqual([{ x: 96, y: 196, width: 308, height: 48 }]);
  });

  it("converts the frame's scroll from DIPs to the page's CSS px (a zoomed page)", () => {
    const regions = new SensitiveRegions();
    // At 125 % zoom a 1280-DIP-wide window is 1024 CSS px wide; the frame is scrolled 125 DIPs = 100 CSS px.
    regions.update(1, { ...report([FIELD], { width: 1024, height: 576 }, 1.25), scroll: { x: 0, y: 0 } });
    const plan = regions.plan(1, 1280, 720, { width: 1280, height: 720, scroll: { x: 0, y: 125 } })!;
    expect(plan[1]).toEqual({ x: 120, y: 120, width: 385, height: 60 }); // FIELD 100 CSS px higher, × 1.25, padded
  });

  it('clips to the image and leaves out rects wholly outside it', () => {
    const regions = new SensitiveRegions();
    regions.update(
      1,
      report([
        { x: 0, y: 0, width: 50, height: 20 },
        { x: 1200, y: 700, width: 200, height: 100 },
        { x: 1290, y: 0, width: 10, height: 10 },
        { x: 10, y: 10, width: 0, height: 10 },
      ]),
    );
    expect(regions.plan(1, 1280, 720)).toEqual([
      { x: 0, y: 0, width: 54, height: 24 },
      { x: 1196, y: 696, width: 84, height: 24 },
    ]);
    expect(regions.maskedRegions).toBe(2);
  });

  it('drops (null) a frame whose shape is not the reported viewport: the window was resized since', () => {
    const regions = new SensitiveRegions();
    regions.update(1, report([FIELD], { width: 1000, height: 720 }));
    expect(regions.plan(1, 1280, 720)).toBeNull(); // wider
    expect(regions.plan(1, 800, 720)).toBeNull(); // narrower
    expect(regions.plan(1, 1000, 800)).toBeNull(); // taller: what is below was never looked at
    expect(regions.plan(1, 0, 0)).toBeNull();
  });

  it('maps a uniformly scaled capture of the whole viewport', () => {
    const regions = new SensitiveRegions();
    regions.update(1, report([FIELD]));
    expect(regions.plan(1, 640, 360)).toEqual([{ x: 48, y: 98, width: 154, height: 24 }]);
  });

  it('maps a frame showing the top of the viewport at device pixels, unscaled (headless screencast: 1280×577 of 1280×720)', () => {
    const regions = new SensitiveRegions();
    regions.update(1, report([FIELD, { x: 100, y: 560, width: 300, height: 40 }, { x: 100, y: 650, width: 300, height: 40 }]));
    expect(regions.plan(1, 1280, 577)).toEqual([
      { x: 96, y: 196, width: 308, height: 48 },
      { x: 96, y: 556, width: 308, height: 21 },
    ]);
    regions.update(1, report([FIELD], { width: 1280, height: 720 }, 2));
    expect(regions.plan(1, 2560, 1154)).toEqual([{ x: 192, y: 392, width: 616, height: 96 }]);
    expect(regions.plan(1, 1280, 577)).toBeNull(); // the top part, but downscaled: not a shape a capture gives
  });

  it('maps a downscaled top part when the screencast says what it shows (maxWidth 640: 640×288 of 1280×577 of 1280×720)', () => {
    const regions = new SensitiveRegions();
    regions.update(1, report([FIELD, { x: 100, y: 560, width: 300, height: 40 }, { x: 100, y: 650, width: 300, height: 40 }]));
    expect(regions.plan(1, 640, 288)).toBeNull(); // without the metadata, the shape is ambiguous
    expect(regions.plan(1, 640, 288, { width: 1280, height: 577 })).toEqual([
      { x: 48, y: 98, width: 154, height: 24 },
      { x: 48, y: 278, width: 154, height: 10 },
    ]);
    // What it shows is another viewport (the window was resized since the report): unknown.
    expect(regions.plan(1, 500, 288, { width: 1000, height: 577 })).toBeNull();
    expect(regions.plan(1, 640, 200, { width: 1280, height: 577 })).toBeNull();
  });

  it('forgets the report when what the frames show changes (the window got shorter: the "started debugging" bar)', () => {
    const regions = new SensitiveRegions();
    expect(regions.noteShown(1, { width: 1280, height: 577 })).toBe(false); // the first frame, and no report to forget
    regions.update(1, report([FIELD]));
    expect(regions.noteShown(1, { width: 1280, height: 577 })).toBe(false);
    expect(regions.plan(1, 1280, 577)).not.toBeNull();
    expect(regions.noteShown(1, { width: 1280, height: 537 })).toBe(true);
    expect(regions.plan(1, 1280, 537)).toBeNull(); // the old rects would land 40 px off for centred content
    regions.update(1, report([FIELD], { width: 1280, height: 680 }));
    expect(regions.plan(1, 1280, 537)).not.toBeNull();
  });

  it("does not trust a report made before the tab's first frame: the window may have changed in between", () => {
    const regions = new SensitiveRegions();
    regions.update(1, report([FIELD]));
    expect(regions.noteShown(1, { width: 1280, height: 537 })).toBe(true);
    expect(regions.plan(1, 1280, 537)).toBeNull();
    regions.update(1, report([FIELD], { width: 1280, height: 537 })); // the page's fresh report
    expect(regions.noteShown(1, { width: 1280, height: 537 })).toBe(false);
    expect(regions.plan(1, 1280, 537)).not.toBeNull();
  });

  it('forgets every report at once, telling which tabs had one', () => {
    const regions = new SensitiveRegions();
    regions.update(1, report([FIELD]));
    regions.update(2, report([]));
    expect(regions.resetAll()).toEqual([1, 2]);
    expect(regions.plan(1, 1280, 720)).toBeNull();
    expect(regions.plan(2, 1280, 720)).toBeNull();
  });

  it('keeps only the latest report of a tab, and tabs apart', () => {
    const regions = new SensitiveRegions();
    regions.update(1, report([FIELD]));
    regions.update(1, report([{ x: 0, y: 0, width: 10, height: 10 }]));
    regions.update(2, report([]));
    expect(regions.plan(1, 1280, 720)).toEqual([{ x: 0, y: 0, width: 14, height: 14 }]);
    expect(regions.plan(2, 1280, 720)).toEqual([]);
    expect(regions.plan(3, 1280, 720)).toBeNull();
  });

  it('masks a frame with the report in force when its picture was taken and every one since (the page scrolled while it waited)', () => {
    const clock = { t: 0 };
    const regions = new SensitiveRegions(() => clock.t);
    regions.update(1, report([FIELD]));
    clock.t = 1_000;
    regions.update(1, report([{ ...FIELD, y: 100 }, FIELD])); // scrolled by 100 px; a second field moved in
    const before = { x: 96, y: 196, width: 308, height: 48 };
    const after = { x: 96, y: 96, width: 308, height: 48 };
    clock.t = 1_300;
    // Taken before the new report, or so soon after it that the picture may not show it yet: both.
    expect(regions.plan(1, 1280, 720, undefined, 990)).toEqual([before, after]);
    expect(regions.plan(1, 1280, 720, undefined, 1_000 + FRAME_LATENCY_MS - 1)).toEqual([before, after]);
    // Taken well after it: the new one alone (the field it lists twice masked once).
    expect(regions.plan(1, 1280, 720, undefined, 1_000 + FRAME_LATENCY_MS)).toEqual([after, before]);
    expect(regions.maskedRegions).toBe(6);
  });

  it("drops a frame taken before the document's first report, and one older than the reports kept", () => {
    const clock = { t: 10_000 };
    const regions = new SensitiveRegions(() => clock.t);
    regions.update(1, report([]));
    expect(regions.plan(1, 1280, 720, undefined, 9_990)).toBeNull(); // it may show the page before (a navigation)
    expect(regions.plan(1, 1280, 720, undefined, 10_000)).toEqual([]);
    clock.t = 10_100;
    regions.update(1, report([FIELD]));
    clock.t = 20_000;
    regions.update(1, report([]));
    // The first two were replaced long ago and forgotten: what a picture of 10 s ago showed is unknown.
    expect(regions.plan(1, 1280, 720, undefined, 10_050)).toBeNull();
    expect(regions.plan(1, 1280, 720, undefined, 20_000)).toEqual([{ x: 96, y: 196, width: 308, height: 48 }]);
    expect(regions.plan(1, 1280, 720, undefined, 20_000 + FRAME_LATENCY_MS)).toEqual([]);
  });

  it('leaves out a report of another viewport (the window was resized in between), and drops the frame when none fits', () => {
    const clock = { t: 0 };
    const regions = new SensitiveRegions(() => clock.t);
    regions.update(1, report([FIELD], { width: 1000, height: 720 }));
    clock.t = 100;
    regions.update(1, report([{ ...FIELD, y: 50 }]));
    expect(regions.plan(1, 1280, 720, undefined, 60)).toEqual([{ x: 96, y: 46, width: 308, height: 48 }]);
    expect(regions.plan(1, 1000, 720, undefined, 60)).toEqual([{ x: 96, y: 196, width: 308, height: 48 }]);
    expect(regions.plan(1, 1000, 1000, undefined, 60)).toBeNull();
  });

  it('is unknown again after a navigation until the new document reports', () => {
    const regions = new SensitiveRegions();
    regions.update(1, report([]));
    regions.reset(1);
    expect(regions.plan(1, 1280, 720)).toBeNull();
    regions.update(1, report([FIELD]));
    expect(regions.plan(1, 1280, 720)).toHaveLength(1);
    regions.forget(1);
    expect(regions.plan(1, 1280, 720)).toBeNull();
  });

  it('adds up the rects of every plan that masks something', () => {
    const regions = new SensitiveRegions();
    regions.update(1, report([FIELD, { x: 0, y: 0, width: 10, height: 10 }]));
    regions.plan(1, 1280, 720);
    regions.plan(1, 1280, 720);
    regions.update(1, report([]));
    regions.plan(1, 1280, 720);
    expect(regions.maskedRegions).toBe(4);
  });
});

describe('SensitiveRegions.plan between two reports', () => {
  /** Two reports 100 ms apart, measured in that order, and a frame taken between them. */
  function twoReports(first: SensitiveRectsMessage, second: SensitiveRectsMessage) {
    const clock = { t: 0 };
    const regions = new SensitiveRegions(() => clock.t);
    regions.update(1, { ...first, ts: 1 });
    clock.t = 100;
    regions.update(1, { ...second, ts: 2 });
    return regions;
  }

  it('covers everywhere a region may have been between the two (an inner scroller moved it 400 px)', () => {
    const regions = twoReports(report([{ ...FIELD, y: 600, id: 3 }]), report([{ ...FIELD, y: 200, id: 3 }]));
    expect(regions.plan(1, 1280, 720, undefined, 50)).toEqual([
      { x: 96, y: 596, width: 308, height: 48 },
      { x: 96, y: 196, width: 308, height: 48 },
      { x: 96, y: 196, width: 308, height: 448 },
    ]);
  });

  it('sweeps a region by its id only: rects without one, or of other ids, stay where they were', () => {
    const regions = twoReports(report([{ ...FIELD, y: 600 }, { ...FIELD, y: 500, id: 1 }]), report([{ ...FIELD, y: 200 }, { ...FIELD, y: 100, id: 2 }]));
    expect(regions.plan(1, 1280, 720, undefined, 50)).toHaveLength(4);
  });

  it('sweeps in the order the page measured, whatever the order the reports came in', () => {
    const clock = { t: 0 };
    const regions = new SensitiveRegions(() => clock.t);
    regions.update(1, { ...report([{ ...FIELD, y: 0, id: 3 }]), ts: 1 });
    clock.t = 100;
    regions.update(1, { ...report([{ ...FIELD, y: 600, id: 3 }]), ts: 3 }); // the page's answer, measured last
    regions.update(1, { ...report([{ ...FIELD, y: 300, id: 3 }]), ts: 2 }); // a report measured before it, late
    const plan = regions.plan(1, 1280, 720, undefined, 50)!;
    // From 0 to 300 and from 300 to 600: every place between 0 and 600 is covered.
    expect(plan).toContainEqual({ x: 96, y: 0, width: 308, height: 344 });
    expect(plan).toContainEqual({ x: 96, y: 296, width: 308, height: 348 });
  });

  it('does not sweep between reports of different viewports (a resize)', () => {
    const regions = twoReports(report([{ ...FIELD, y: 600, id: 3 }], { width: 1280, height: 720 }), report([{ ...FIELD, y: 200, id: 3 }], { width: 1281, height: 720 }));
    expect(regions.plan(1, 1280, 720, undefined, 50)).toHaveLength(2);
  });

  it('with the scroll a screencast frame shows, sweeps a region that moved on the page, not one the page scroll moved', () => {
    const shown = { width: 1280, height: 720, scroll: { x: 0, y: 100 } };
    // The page scrolled by 100 between the reports: the field is where it was on the page.
    const scrolled = twoReports({ ...report([{ ...FIELD, y: 300, id: 3 }]), scroll: { x: 0, y: 0 } }, { ...report([{ ...FIELD, y: 200, id: 3 }]), scroll: { x: 0, y: 100 } });
    // Where each report has it, where the frame's scroll puts it (200 both times: no sweep there),
    // and the sweep of the places as reported (in case it is fixed and moved).
    expect(scrolled.plan(1, 1280, 720, shown, 50)).toEqual([
      { x: 96, y: 296, width: 308, height: 48 },
      { x: 96, y: 196, width: 308, height: 48 },
      { x: 96, y: 196, width: 308, height: 148 },
    ]);
    // An inner scroller moved it by 300 as well: the box between its two places on the page.
    const moved = twoReports({ ...report([{ ...FIELD, y: 600, id: 3 }]), scroll: { x: 0, y: 0 } }, { ...report([{ ...FIELD, y: 200, id: 3 }]), scroll: { x: 0, y: 100 } });
    expect(moved.plan(1, 1280, 720, shown, 50)).toContainEqual({ x: 96, y: 196, width: 308, height: 348 });
  });
});

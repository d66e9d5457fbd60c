import { describe, expect, it } from 'vitest';
import { shownPart, viewportCutOf, viewportCutsOf, viewportCutWarning } from './viewport-cut';

describe('shownPart', () => {
  it.each([
    { label: 'the whole viewport at one image px per CSS px', viewport: [1280, 720], image: [1280, 720], scale: 1, shown: null },
    { label: 'the whole viewport at scale 2', viewport: [1024, 700], image: [2048, 1400], scale: 2, shown: null },
    { label: 'a fractional pixel ratio rounds within the tolerance (Pixel 5: 393×727 at 2.75)', viewport: [393, 727], image: [1081, 1999], scale: 2.75, shown: null },
    { label: 'a screencast scaled down to fit', viewport: [1280, 720], image: [640, 360], scale: 0.5, shown: null },
    { label: 'no image scale: the width ratio (the whole viewport scaled)', viewport: [1280, 720], image: [640, 360], scale: undefined, shown: null },
    { label: 'more than the viewport (blank beside an emulated 800×600)', viewport: [800, 600], image: [1280, 720], scale: 1, shown: null },
    { label: 'the top of 1280×720 (the infobar took the window\u2019s bottom)', viewport: [1280, 720], image: [1280, 577], scale: 1, shown: { width: 1280, height: 577 } },
    { label: 'the top of 1024×700 at scale 2', viewport: [1024, 700], image: [2048, 1114], scale: 2, shown: { width: 1024, height: 557 } },
    { label: 'the top left of 800×600 in a 780×437 window', viewport: [800, 600], image: [780, 437], scale: 1, shown: { width: 780, height: 437 } },
    { label: 'no image scale: the width ratio says how much of the height', viewport: [1280, 720], image: [640, 288], scale: undefined, shown: { width: 1280, height: 576 } },
  ])('$label', ({ viewport: [width, height], image: [iw, ih], scale, shown }) => {
    expect(shownPart({ width: width!, height: height! }, iw!, ih!, scale)).toEqual(shown);
  });

  it('says nothing of sizes that are not positive and finite', () => {
    expect(shownPart({ width: 0, height: 720 }, 1280, 577, 1)).toBeNull();
    expect(shownPart({ width: 1280, height: 720 }, 1280, Number.NaN, 1)).toBeNull();
    expect(shownPart({ width: 1280, height: 720 }, 1280, 577, Number.POSITIVE_INFINITY)).toEqual({ width: 1280, height: 577 }); // the width ratio
  });
});

describe('viewportCutOf', () => {
  it('takes the frame\u2019s own `shown`, else works it out from its size and image scale; none without a viewport', () => {
    const viewport = { width: 1280, height: 720, device_pixel_ratio: 1, image_scale: 1 };
    expect(viewportCutOf({ width: 1280, height: 577, viewport: { ...viewport, shown: { width: 1280, height: 577 } } })).toEqual({ viewport: { width: 1280, height: 720 }, shown: { width: 1280, height: 577 } });
    expect(viewportCutOf({ width: 1280, height: 577, viewport })).toEqual({ viewport: { width: 1280, height: 720 }, shown: { width: 1280, height: 577 } });
    expect(viewportCutOf({ width: 1280, height: 720, viewport })).toBeNull();
    expect(viewportCutOf({ width: 1280, height: 577 })).toBeNull();
  });
});

describe('viewportCutWarning', () => {
  it('says what is missing and names the switch that fixes it', () => {
    const text = viewportCutWarning({ viewport: { width: 1280, height: 720 }, shown: { width: 1280, height: 577 } }, 7, 9);
    expect(text).toMatch(/^7 of 9 frames show 1280×577 of the page's 1280×720 viewport \(CSS px\): the bottom 143 px are not recorded\. /);
    expect(text).toContain('launch the browser with --silent-debugger-extension-api');
    expect(viewportCutWarning({ viewport: { width: 800, height: 600 }, shown: { width: 780, height: 437 } }, 1, 1)).toContain('the bottom 163 px and the right 20 px are not recorded');
  });
});

describe('viewportCutsOf', () => {
  it('counts the frames cut short and keeps the latest one\u2019s cut', () => {
    const viewport = (height: number) => ({ width: 1280, height, device_pixel_ratio: 1, image_scale: 1 });
    const frames = [
      { id: 1, width: 1280, height: 577, viewport: viewport(720) },
      { id: 2, width: 1280, height: 657, viewport: viewport(800) },
      { id: 3, width: 1280, height: 720, viewport: viewport(720) },
      { id: 4, width: 1280, height: 500 },
    ];
    expect(viewportCutsOf(frames)).toEqual({ cutFrames: 2, frames: 4, latest: { frame: frames[1], cut: { viewport: { width: 1280, height: 800 }, shown: { width: 1280, height: 657 } } } });
    expect(viewportCutsOf(frames.slice(2))).toBeNull();
  });
});

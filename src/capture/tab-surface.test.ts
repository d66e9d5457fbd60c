import { describe, expect, it } from 'vitest';
import { tabSurface } from './tab-surface';

describe('tabSurface', () => {
  it.each([
    { name: 'the tab as captured', tab: { width: 1280, height: 720 }, image: { width: 1280, height: 720 }, want: { width: 1280, height: 720 } },
    { name: 'at device scale 2', tab: { width: 1024, height: 700 }, image: { width: 2048, height: 1400 }, want: { width: 1024, height: 700 } },
    { name: 'a pixel of rounding', tab: { width: 1280, height: 633 }, image: { width: 1280, height: 634 }, want: { width: 1280, height: 633 } },
    { name: 'a tab size that is not the picture (the silent debugger switch)', tab: { width: 1280, height: 633 }, image: { width: 1280, height: 720 }, want: undefined },
    { name: 'no tab size', tab: {}, image: { width: 1280, height: 720 }, want: undefined },
    { name: 'a zero tab size', tab: { width: 0, height: 0 }, image: { width: 1280, height: 720 }, want: undefined },
  ])('$name', ({ tab, image, want }) => {
    expect(tabSurface(tab, image)).toEqual(want);
  });
});

import { describe, expect, it } from 'vitest';
import { chooseOutputSize } from './output-size';

describe('chooseOutputSize', () => {
  it.each([
    [{ width: 1280, height: 720 }, { width: 1280, height: 720 }],
    [{ width: 1281, height: 721 }, { width: 1280, height: 720 }],
    [{ width: 65, height: 37 }, { width: 64, height: 36 }],
    [{ width: 1, height: 1 }, { width: 2, height: 2 }],
    [{ width: 1920, height: 1080 }, { width: 1920, height: 1080 }],
    [{ width: 2560, height: 1440 }, { width: 1920, height: 1080 }],
    [{ width: 2560, height: 1600 }, { width: 1920, height: 1200 }],
    [{ width: 1170, height: 2532 }, { width: 886, height: 1920 }],
  ])('%o → %o', (last, expected) => {
    expect(chooseOutputSize(last)).toEqual(expected);
  });

  it('honours a smaller limit', () => {
    expect(chooseOutputSize({ width: 1280, height: 720 }, 640)).toEqual({ width: 640, height: 360 });
  });
});

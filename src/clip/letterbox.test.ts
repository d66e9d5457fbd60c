import { describe, expect, it } from 'vitest';
import { fillsOutput, letterbox } from './letterbox';

const hd = { width: 1280, height: 720 };

describe('letterbox', () => {
  it.each([
    ['the same size', { width: 1280, height: 720 }, { sw: 1280, sh: 720, dx: 0, dy: 0, dw: 1280, dh: 720 }],
    ['an odd size: last row and column dropped', { width: 1281, height: 721 }, { sw: 1280, sh: 720, dx: 0, dy: 0, dw: 1280, dh: 720 }],
    ['HiDPI, same aspect: scaled down', { width: 2560, height: 1440 }, { sw: 2560, sh: 1440, dx: 0, dy: 0, dw: 1280, dh: 720 }],
    ['narrower: pillarboxed', { width: 1000, height: 720 }, { sw: 1000, sh: 720, dx: 140, dy: 0, dw: 1000, dh: 720 }],
    ['wider: letterboxed', { width: 1280, height: 600 }, { sw: 1280, sh: 600, dx: 0, dy: 60, dw: 1280, dh: 600 }],
    ['smaller, other aspect: scaled up', { width: 800, height: 600 }, { sw: 800, sh: 600, dx: 160, dy: 0, dw: 960, dh: 720 }],
    ['odd centring offset', { width: 1278, height: 720 }, { sw: 1278, sh: 720, dx: 0, dy: 0, dw: 1278, dh: 720 }],
    ['tall phone', { width: 390, height: 844 }, { sw: 390, sh: 844, dx: 474, dy: 0, dw: 332, dh: 720 }],
  ])('%s', (_name, frame, expected) => {
    expect(letterbox(frame, hd)).toEqual({ sx: 0, sy: 0, ...expected });
  });

  it('keeps the destination inside the clip with even offsets and sizes', () => {
    for (const frame of [{ width: 1001, height: 333 }, { width: 333, height: 1001 }, { width: 3, height: 1 }]) {
      const r = letterbox(frame, hd);
      expect(r.dx + r.dw).toBeLessThanOrEqual(hd.width);
      expect(r.dy + r.dh).toBeLessThanOrEqual(hd.height);
      expect([r.dx % 2, r.dy % 2, r.dw % 2, r.dh % 2]).toEqual([0, 0, 0, 0]);
    }
  });
});

describe('fillsOutput', () => {
  it.each([
    [{ width: 1280, height: 720 }, true],
    [{ width: 1281, height: 721 }, true],
    [{ width: 2560, height: 1440 }, true],
    [{ width: 640, height: 360 }, true],
    [{ width: 1000, height: 720 }, false],
    [{ width: 1280, height: 600 }, false],
    [{ width: 1278, height: 720 }, false],
  ])('%o → %s', (frame, expected) => {
    expect(fillsOutput(frame, hd)).toBe(expected);
  });
});

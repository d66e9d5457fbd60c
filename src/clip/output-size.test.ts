import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { chooseOutputSize, clipOutputSize } from './output-size';

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

describe('clipOutputSize', () => {
  const jpeg = new Uint8Array(readFileSync(new URL('../../test/fixtures/clip/odd-65x37.jpeg', import.meta.url)));

  it('sizes the clip from the last frame', () => {
    expect(clipOutputSize([{ jpeg: new Uint8Array([1, 2, 3]) }, { jpeg }])).toEqual({ width: 64, height: 36 });
  });

  it.each([
    ['no frame', [], /at least one frame/],
    ['an unreadable last frame', [{ jpeg }, { jpeg: new Uint8Array([0xff, 0xd8, 0, 0]) }], /last frame is not a readable JPEG/],
  ])('refuses %s', (_name, frames, message) => {
    expect(() => clipOutputSize(frames)).toThrow(message);
  });
});

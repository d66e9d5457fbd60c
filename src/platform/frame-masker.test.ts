import { afterEach, describe, expect, it, vi } from 'vitest';
import { MASK_EDGE, MASK_FILL, maskJpeg } from './frame-masker';

// Node has neither createImageBitmap nor OffscreenCanvas: fakes record what is drawn.
function fakeCanvas() {
  const calls: string[] = [];
  const bitmap = { width: 1280, height: 720, close: vi.fn() };
  const ctx = {
    fillStyle: '',
    drawImage: (img: unknown, x: number, y: number) => calls.push(`draw ${img === bitmap} ${x},${y}`),
    fillRect(x: number, y: number, w: number, h: number) {
      calls.push(`${this.fillStyle} ${x},${y},${w},${h}`);
    },
  };
  let encodedWith: unknown;
  class FakeOffscreenCanvas {
    constructor(
      readonly width: number,
      readonly height: number,
    ) {
      calls.push(`canvas ${width}x${height}`);
    }
    getContext() {
      return ctx;
    }
    async convertToBlob(options: unknown) {
      encodedWith = options;
      return new Blob([new Uint8Array([0xff, 0xd8, 1, 2])]);
    }
  }
  const decode = vi.fn(async (blob: Blob) => {
    calls.push(`decode ${blob.type} ${blob.size}`);
    return bitmap;
  });
  vi.stubGlobal('createImageBitmap', decode);
  vi.stubGlobal('OffscreenCanvas', FakeOffscreenCanvas);
  return { calls, bitmap, decode, encodedWith: () => encodedWith };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('maskJpeg', () => {
  it('paints every rect opaque, edge then inside, and re-encodes at the quality asked', async () => {
    const fake = fakeCanvas();
    const out = await maskJpeg(new Uint8Array([0xff, 0xd8, 0xff, 0xd9]), [{ x: 10, y: 20, width: 30, height: 40 }], 70);
    expect(fake.calls).toEqual([
      'decode image/jpeg 4',
      'canvas 1280x720',
      'draw true 0,0',
      `${MASK_EDGE} 10,20,30,40`,
      `${MASK_FILL} 11,21,28,38`,
    ]);
    expect(fake.encodedWith()).toEqual({ type: 'image/jpeg', quality: 0.7 });
    expect([...out]).toEqual([0xff, 0xd8, 1, 2]);
    expect(fake.bitmap.close).toHaveBeenCalledOnce();
  });

  it('returns the frame untouched when there is nothing to mask', async () => {
    const fake = fakeCanvas();
    const jpeg = new Uint8Array([0xff, 0xd8]);
    expect(await maskJpeg(jpeg, [], 70)).toBe(jpeg);
    expect(fake.decode).not.toHaveBeenCalled();
  });

  it('closes the bitmap even when drawing fails', async () => {
    const fake = fakeCanvas();
    vi.stubGlobal(
      'OffscreenCanvas',
      class {
        getContext() {
          return null;
        }
      },
    );
    await expect(maskJpeg(new Uint8Array([0xff, 0xd8]), [{ x: 0, y: 0, width: 5, height: 5 }], 70)).rejects.toThrow(/2d context/);
    expect(fake.bitmap.close).toHaveBeenCalledOnce();
  });
});

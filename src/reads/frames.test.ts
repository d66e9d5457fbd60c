import { encode } from 'jpeg-js';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { editBundle, editJson, makeBundle, STEPS, T0 } from '../../test/fixtures/cli/make-bundle';
import { encodePngNode } from '../cli/png-node';
import { BundleReadError } from './errors';
import { DEFAULT_FRAME_OPTIONS, readFrame } from './frames';
import { openBundle } from './open-bundle';
import { frameText } from './render-text';

async function refusal(promise: Promise<unknown>): Promise<BundleReadError> {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(BundleReadError);
  return error as BundleReadError;
}

/** A 1600×900 JPEG: left half black, right half white. (jpeg-js encodes it in pure JS: a second or so.) */
function wideJpeg(): Uint8Array {
  const width = 1600;
  const height = 900;
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i += 1) {
    const v = i % width < width / 2 ? 0 : 255;
    data.set([v, v, v, 255], i * 4);
  }
  return encode({ width, height, data }, 80).data;
}

describe('frames', () => {
  const decodePng = (bytes: Uint8Array) => PNG.sync.read(Buffer.from(bytes));

  it('decodes frame N to a PNG of its own size when it is narrow', async () => {
    const reader = await openBundle(await makeBundle());
    const frame = await readFrame(reader, { index: 3 }, DEFAULT_FRAME_OPTIONS, encodePngNode);
    expect(frame).toMatchObject({ index: 3, count: 4, name: 'frames/frame_0003.jpeg', at_ms: -2000, width: 65, height: 37, source_width: 65 });
    expect([decodePng(frame.png).width, decodePng(frame.png).height]).toEqual([65, 37]);
  });

  it('says the viewport the frame shows when the bundle has it, and leaves out one that does not read', async () => {
    const viewport = { width: 1000, height: 640, device_pixel_ratio: 2, image_scale: 2, scroll: { x: 0, y: 120 } };
    const zip = await editBundle(await makeBundle(), (files) =>
      editJson(files, 'manifest.json', (m) => {
        const frames = m.frames as Record<string, unknown>[];
        Object.assign(frames[2]!, { viewport });
        Object.assign(frames[3]!, { viewport: { width: -1, height: 640 } });
      }),
    );
    const reader = await openBundle(zip);
    const frame = await readFrame(reader, { index: 3 }, DEFAULT_FRAME_OPTIONS, encodePngNode);
    expect(frame.viewport).toEqual(viewport);
    expect(frameText(frame, null)).toContain('it shows a viewport of 1000x640 CSS px at device pixel ratio 2, 2 image px per CSS px, scrolled to 0,120');
    const bad = await readFrame(reader, { index: 4 }, DEFAULT_FRAME_OPTIONS, encodePngNode);
    expect(bad.viewport).toBeUndefined();
    expect(frameText(bad, null)).toHaveLength(1);
  });

  it('scales a wide frame down to the bounded width, keeping what it shows', async () => {
    const zip = await editBundle(await makeBundle(), (files) => {
      files.set('frames/frame_0004.jpeg', wideJpeg());
      editJson(files, 'manifest.json', (m) => Object.assign((m.frames as Record<string, unknown>[])[3]!, { width: 1600, height: 900 }));
    });
    const reader = await openBundle(zip);
    const frame = await readFrame(reader, { index: 4 }, DEFAULT_FRAME_OPTIONS, encodePngNode);
    const png = decodePng(frame.png);
    expect([frame.width, frame.height, png.width, png.height, frame.source_width]).toEqual([1024, 576, 1024, 576, 1600]);
    // Left edge black, right edge white, after scaling.
    expect(png.data[(100 * 1024 + 10) * 4]).toBeLessThan(30);
    expect(png.data[(100 * 1024 + 1000) * 4]).toBeGreaterThan(225);
    // A byte bound below what 1024 px takes scales it down further.
    const small = await readFrame(reader, { index: 4 }, { maxWidth: 1024, maxBytes: frame.png.byteLength - 1 }, encodePngNode);
    expect(small.width).toBeLessThan(1024);
    expect(small.png.byteLength).toBeLessThan(frame.png.byteLength);
  }, 30_000);

  it('picks the frame nearest a moment or a step, and refuses one out of range', async () => {
    const reader = await openBundle(await makeBundle());
    // Frames were captured at -4 s, -3 s, -2 s, -1 s.
    expect((await readFrame(reader, { atMs: -2900 }, DEFAULT_FRAME_OPTIONS, encodePngNode)).index).toBe(2);
    expect((await readFrame(reader, { atMs: 5000 }, DEFAULT_FRAME_OPTIONS, encodePngNode)).index).toBe(4);
    expect(STEPS[8]!.ts).toBe(T0 - 2000);
    expect((await readFrame(reader, { step: 9 }, DEFAULT_FRAME_OPTIONS, encodePngNode)).index).toBe(3);
    expect((await refusal(readFrame(reader, { index: 5 }, DEFAULT_FRAME_OPTIONS, encodePngNode))).message).toBe('frame 5 is out of range: the bundle has 4 frames (1 to 4)');
    expect((await refusal(readFrame(reader, { step: 40 }, DEFAULT_FRAME_OPTIONS, encodePngNode))).message).toBe('step 40 is out of range: the bundle has 12 steps (1 to 12)');
  });

  it('refuses a frame that is not a JPEG in one line', async () => {
    const zip = await editBundle(await makeBundle(), (files) => files.set('frames/frame_0001.jpeg', new TextEncoder().encode('<html>')));
    const error = await refusal(readFrame(await openBundle(zip), { index: 1 }, DEFAULT_FRAME_OPTIONS, encodePngNode));
    expect(error.message).toMatch(/^frames\/frame_0001\.jpeg cannot be decoded as a JPEG \(/);
  });
});

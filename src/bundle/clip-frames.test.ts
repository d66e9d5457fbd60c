import { describe, expect, it } from 'vitest';
import { clipFrameRefs } from './clip-frames';

const frame = (key: number, bytes: number[]) => ({ key, jpeg: new Uint8Array(bytes), durationMs: 100 * key });
const b64 = (bytes: number[]) => Buffer.from(bytes).toString('base64');

describe('clipFrameRefs', () => {
  const three = [frame(1, [1, 2, 3]), frame(2, [4, 5, 6]), frame(3, [7, 8, 9])];
  const left = '1 frames kept in memory (storage full) are left out of the clip: more than a message to the encoder takes';

  it.each([
    { name: 'all stored: by key only', frames: three, inMemory: [], max: 100, want: [null, null, null], warning: null },
    { name: 'kept in memory: in the message', frames: three, inMemory: [2, 3], max: 100, want: [null, b64([4, 5, 6]), b64([7, 8, 9])], warning: null },
    { name: 'over the budget: the newest first, the rest left out', frames: three, inMemory: [1, 2, 3], max: 9, want: [null, b64([4, 5, 6]), b64([7, 8, 9])], warning: left },
    {
      name: 'an older small one still fits after a newer big one is left out',
      frames: [frame(1, [1, 2, 3]), frame(2, [4]), frame(3, [7, 8, 9, 10, 11, 12])],
      inMemory: [1, 3],
      max: 4,
      want: [b64([1, 2, 3]), null, null],
      warning: left,
    },
  ])('$name', ({ frames, inMemory, max, want, warning }) => {
    const result = clipFrameRefs(frames, (key) => inMemory.includes(key), max);
    expect(result.refs.map((r) => r.jpeg_base64 ?? null)).toEqual(want);
    expect(result.refs.map((r) => [r.key, r.duration_ms])).toEqual([[1, 100], [2, 200], [3, 300]]);
    expect(result.warning).toBe(warning);
  });
});

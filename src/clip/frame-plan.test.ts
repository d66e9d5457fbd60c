import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { planClipFrames, type StoredFrame } from './frame-plan';

const jpeg = new Uint8Array(readFileSync(new URL('../../test/fixtures/clip/baseline-64x36.jpeg', import.meta.url)));
const notJpeg = new Uint8Array([1, 2, 3, 4]);

const durations = (stored: StoredFrame[]) => planClipFrames(stored).frames.map((frame) => frame.durationMs);

describe('planClipFrames', () => {
  it('keeps good frames as they are', () => {
    const plan = planClipFrames([
      { jpeg, durationMs: 500 },
      { jpeg, durationMs: 250 },
    ]);
    expect(plan).toEqual({ frames: [{ jpeg, durationMs: 500 }, { jpeg, durationMs: 250 }], dropped: 0 });
  });

  it.each([
    ['a missing frame to the one before it', [{ jpeg, durationMs: 500 }, { jpeg: undefined, durationMs: 250 }, { jpeg, durationMs: 100 }], [750, 100]],
    ['an unreadable frame to the one before it', [{ jpeg, durationMs: 500 }, { jpeg: notJpeg, durationMs: 250 }], [750]],
    ['leading missing frames to the first good one', [{ jpeg: undefined, durationMs: 300 }, { jpeg: notJpeg, durationMs: 200 }, { jpeg, durationMs: 100 }], [600]],
  ])('gives the time of %s', (_name, stored, expected) => {
    expect(durations(stored)).toEqual(expected);
  });

  it('counts what it dropped and may drop everything', () => {
    expect(planClipFrames([{ jpeg: undefined, durationMs: 1 }, { jpeg: notJpeg, durationMs: 1 }])).toEqual({ frames: [], dropped: 2 });
  });

  it('does not change its input', () => {
    const stored = [{ jpeg, durationMs: 500 }, { jpeg: undefined, durationMs: 250 }];
    planClipFrames(stored);
    expect(stored[0]?.durationMs).toBe(500);
  });
});

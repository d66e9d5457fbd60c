import { describe, expect, it } from 'vitest';
import { planVideoSamples, samplesByFrame } from './sample-plan';

const total = (samples: { durationUs: number }[]) => samples.reduce((sum, s) => sum + s.durationUs, 0);

describe('planVideoSamples', () => {
  it('starts each frame where the previous ends and splits the last one in two halves', () => {
    expect(planVideoSamples([600, 550, 2000])).toEqual([
      { frameIndex: 0, timestampUs: 0, durationUs: 600_000, keyFrame: true },
      { frameIndex: 1, timestampUs: 600_000, durationUs: 550_000, keyFrame: false },
      { frameIndex: 2, timestampUs: 1_150_000, durationUs: 1_000_000, keyFrame: false },
      { frameIndex: 2, timestampUs: 2_150_000, durationUs: 1_000_000, keyFrame: false },
    ]);
  });

  it.each([
    ['one frame', [1234]],
    ['odd microseconds', [0.0015, 333.3333, 333.3333, 333.3334]],
    ['capture jitter', [548.7, 612.2, 550.1, 1999.9, 17.3, 550.5]],
  ])('lasts exactly the sum of the durations: %s', (_name, durations) => {
    const samples = planVideoSamples(durations);
    const sumUs = Math.round(durations.reduce((a, b) => a + b, 0) * 1000);
    expect(total(samples)).toBe(sumUs);
    const last = samples.at(-1)!;
    expect(last.timestampUs + last.durationUs).toBe(sumUs);
    // Contiguous: every sample starts where the one before it ends.
    samples.slice(1).forEach((s, i) => expect(s.timestampUs).toBe(samples[i]!.timestampUs + samples[i]!.durationUs));
  });

  it('does not let rounding drift over many frames', () => {
    const samples = planVideoSamples(Array.from({ length: 120 }, () => 100 / 3));
    expect(samples[119]!.timestampUs).toBe(Math.round((119 * 100_000) / 3));
    expect(total(samples)).toBe(4_000_000);
  });

  it('asks for a keyframe every interval, never on the repeated half', () => {
    const samples = planVideoSamples([700, 700, 700, 700, 700, 700, 3000], { intervalMs: 2000, minFrames: 1 });
    expect(samples.filter((s) => s.keyFrame).map((s) => s.timestampUs)).toEqual([0, 2_100_000, 4_200_000]);
    expect(samples.at(-1)!.keyFrame).toBe(false);
  });

  it.each([
    // The recorder's pace: 30 frames apart, as 2 s would be every 4th frame.
    ['550 ms frames', 550, 120, [0, 30, 60, 90]],
    // A 60 fps screencast: 2 s apart.
    ['16.7 ms frames', 1000 / 60, 300, [0, 120, 240]],
  ])('by default, every 2 s but at least 30 frames apart: %s', (_name, ms, count, keyFrames) => {
    const samples = planVideoSamples(Array.from({ length: count }, () => ms));
    expect(samples.filter((s) => s.keyFrame).map((s) => s.frameIndex)).toEqual(keyFrames);
  });

  it('leaves a last frame of a single microsecond whole', () => {
    expect(planVideoSamples([5, 0.001])).toHaveLength(2);
  });

  it('refuses an empty clip', () => {
    expect(() => planVideoSamples([])).toThrow(/at least one frame/);
  });
});

describe('samplesByFrame', () => {
  it('groups the repeated half with its frame', () => {
    const groups = samplesByFrame(planVideoSamples([100, 200]), 2);
    expect(groups.map((g) => g.map((s) => s.timestampUs))).toEqual([[0], [100_000, 200_000]]);
  });
});

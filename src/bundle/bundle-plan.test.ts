import { describe, expect, it } from 'vitest';
import type { CaptureLevel } from '../../schemas/capture-level';
import type { FailureSignal } from '../../schemas/failure';
import { bundlePlan, snapshotTarget } from './bundle-plan';

const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);
const signal = { tab_id: 7, ts: T0 } as FailureSignal;

describe('bundlePlan', () => {
  it.each([
    { level: 'off', encodeClip: true, want: { withSnapshot: false, withFrames: false, withClip: false } },
    { level: 'metadata', encodeClip: true, want: { withSnapshot: false, withFrames: false, withClip: false } },
    { level: 'trace', encodeClip: true, want: { withSnapshot: true, withFrames: false, withClip: false } },
    { level: 'screenshots', encodeClip: true, want: { withSnapshot: true, withFrames: true, withClip: false } },
    { level: 'video', encodeClip: true, want: { withSnapshot: true, withFrames: true, withClip: true } },
    { level: 'full', encodeClip: true, want: { withSnapshot: true, withFrames: true, withClip: true } },
    { level: 'full', encodeClip: false, want: { withSnapshot: true, withFrames: true, withClip: false } },
  ] as { level: CaptureLevel; encodeClip: boolean; want: object }[])('at $level (encodeClip $encodeClip) holds $want', ({ level, encodeClip, want }) => {
    expect(bundlePlan('b', signal, { bufferSeconds: 15, encodeClip }, level, T0)).toMatchObject(want);
  });

  it.each([
    { name: 'packaged at the signal', now: T0, windowEnd: T0 },
    { name: 'packaged after the tail', now: T0 + 3_000, windowEnd: T0 + 3_000 },
    { name: 'a signal stamped after the clock (page time)', now: T0 - 20, windowEnd: T0 },
  ])('covers bufferSeconds before the signal up to the later of signal and now: $name', ({ now, windowEnd }) => {
    expect(bundlePlan('b', signal, { bufferSeconds: 15, encodeClip: true }, 'full', now)).toEqual({
      bundleId: 'b',
      tabId: 7,
      windowStart: T0 - 15_000,
      windowEnd,
      withSnapshot: true,
      withFrames: true,
      withClip: true,
    });
  });
});

describe('snapshotTarget', () => {
  it.each([
    { withSnapshot: true, tabId: 7, want: { tabId: 7 } },
    { withSnapshot: true, tabId: null, want: { skipped: 'the failure is not bound to a tab' } },
    { withSnapshot: false, tabId: 7, want: { skipped: 'not taken at capture level screenshots' } },
    { withSnapshot: false, tabId: null, want: { skipped: 'not taken at capture level screenshots' } },
  ])('snapshot $withSnapshot, tab $tabId: $want', ({ withSnapshot, tabId, want }) => {
    expect(snapshotTarget({ withSnapshot, tabId }, 'screenshots')).toEqual(want);
  });
});

import { describe, expect, it } from 'vitest';
import { failureFrame, failureStep, frameOfStep, LATE_PAGE_MS, pageLateness, screenAt, stepLabel, stepNumber } from './story';

const frames = [{ ts: 1000 }, { ts: 2000 }, { ts: 3000 }];

describe('screenAt', () => {
  it.each([
    [999, 0, 'before the first frame: the first one, taken after'],
    [1000, 0, 'at a capture: that frame'],
    [1999, 0, 'just before the next capture: the frame still on screen, not the nearer next one'],
    [2000, 1, 'at the next capture'],
    [2600, 1, 'between captures'],
    [9000, 2, 'after the last: the last'],
  ])('at %i → frame %i (%s)', (ts, expected) => {
    expect(screenAt(frames, ts)).toBe(expected);
  });

  it('is -1 without frames', () => {
    expect(screenAt([], 0)).toBe(-1);
  });
});

describe('the frame of a step and the screen at the failure agree', () => {
  it('a click 37 ms before the failure and the failure itself show the same frame', () => {
    const failureTs = 2900;
    const click = { ts: failureTs - 37 };
    expect(frameOfStep(frames, click)).toBe(1);
    expect(failureFrame(frames, failureTs)).toBe(frameOfStep(frames, { ts: failureTs }));
  });

  it('an unknown failure time means the last frame', () => {
    expect(failureFrame(frames, Number.NaN)).toBe(2);
    expect(failureFrame([], Number.NaN)).toBe(-1);
  });
});

describe('failureStep', () => {
  const s = (ts: number, outcome: 'ok' | 'fail' | null = null) => ({ ts, outcome });
  it.each([
    ['the last failing step at or before the failure', [s(1), s(2, 'fail'), s(3), s(5, 'fail')], 4, 1],
    ['else the last step at or before it', [s(1), s(2), s(5)], 4, 1],
    ['else the last step', [s(5), s(6)], 4, 1],
    ['with an unknown failure time, the last failing step', [s(1, 'fail'), s(2)], Number.NaN, 0],
    ['without steps, -1', [], 4, -1],
  ])('%s', (_what, steps, failureTs, expected) => {
    expect(failureStep(steps, failureTs)).toBe(expected);
  });
});

describe('step numbers', () => {
  it('are 1-based positions, written #N', () => {
    expect(stepNumber(0)).toBe(1);
    expect(stepLabel(16)).toBe('#17');
  });
});

describe('pageLateness', () => {
  it.each([
    [1000, 1000 + LATE_PAGE_MS - 1, null],
    [1000, 1000 + LATE_PAGE_MS, LATE_PAGE_MS],
    [1000, 3635, 2635],
    [1000, undefined, null],
    [Number.NaN, 2000, null],
  ])('step at %s, page at %s → %s', (stepTs, pageAt, expected) => {
    expect(pageLateness(stepTs, pageAt)).toBe(expected);
  });
});

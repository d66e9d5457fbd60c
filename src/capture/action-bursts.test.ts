import { describe, expect, it } from 'vitest';
import { ActionBursts } from './action-bursts';

const TIMES = { coalesceMs: 100, gapMs: 150, quietMs: 600 };

describe('ActionBursts', () => {
  it.each([
    { label: 'a model thinking between actions', times: [0, 2_000, 5_000], bursting: [false, false, false] },
    { label: 'a script acting back to back', times: [0, 120, 240, 360], bursting: [false, true, true, true] },
    { label: 'a script acting every 250 ms (no burst: it leaves the page time)', times: [0, 250, 500, 750], bursting: [false, false, false, false] },
    { label: 'a click and the submit it causes, each time', times: [0, 1, 1_000, 1_002], bursting: [false, false, false, false] },
    { label: 'a typed value, Enter and the submit, then the agent reporting the step', times: [0, 0, 2, 60], bursting: [false, false, false, false] },
    { label: 'steps arriving out of order (several frames of a page)', times: [50, 10, 2_000], bursting: [false, false, false] },
    { label: 'an action starting exactly one gap after the last one ended', times: [0, 150], bursting: [false, false] },
  ])('$label', ({ times, bursting }) => {
    const bursts = new ActionBursts(TIMES);
    expect(times.map((t) => bursts.noteAction(1, t))).toEqual(bursting);
  });

  it('measures the gap from the end of the previous action (its last step)', () => {
    const bursts = new ActionBursts(TIMES);
    bursts.noteAction(1, 0);
    bursts.noteAction(1, 90); // the same action, ending at 90
    expect(bursts.noteAction(1, 230)).toBe(true); // 140 ms after it ended
  });

  it('lasts until the quiet time has passed since the last step', () => {
    const bursts = new ActionBursts(TIMES);
    bursts.noteAction(1, 0);
    bursts.noteAction(1, 120);
    expect(bursts.quietIn(1, 120)).toBe(600);
    bursts.noteAction(1, 500); // a slower action keeps the burst going
    expect(bursts.inBurst(1)).toBe(true);
    expect(bursts.quietIn(1, 800)).toBe(300);
    expect(bursts.quietIn(1, 1_100)).toBe(0);
    bursts.end(1);
    expect(bursts.inBurst(1)).toBe(false);
    // After it, one action alone starts no burst; a quick second one does.
    expect(bursts.noteAction(1, 3_000)).toBe(false);
    expect(bursts.quietIn(1, 3_000)).toBe(0);
    expect(bursts.noteAction(1, 3_120)).toBe(true);
  });

  it('keeps tabs apart, and forgets a tab', () => {
    const bursts = new ActionBursts(TIMES);
    bursts.noteAction(1, 0);
    bursts.noteAction(2, 110); // another tab's action is no second action of tab 1
    expect(bursts.inBurst(1)).toBe(false);
    expect(bursts.noteAction(1, 120)).toBe(true);
    bursts.forget(1);
    expect(bursts.inBurst(1)).toBe(false);
    expect(bursts.noteAction(1, 240)).toBe(false);
  });

  it('refuses a quiet time shorter than the gap (a burst would end before its next action could continue it)', () => {
    expect(() => new ActionBursts({ coalesceMs: 100, gapMs: 300, quietMs: 200 })).toThrow(/at least as long/);
  });
});

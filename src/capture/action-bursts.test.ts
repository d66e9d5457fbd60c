import { describe, expect, it } from 'vitest';
import { ActionBursts } from './action-bursts';

describe('ActionBursts', () => {
  it.each([
    { label: 'a model thinking between actions', times: [0, 2_000, 5_000], bursting: [false, false, false] },
    { label: 'a script acting back to back', times: [0, 20, 45, 60], bursting: [false, true, true, true] },
    { label: 'an action exactly one gap after the last', times: [0, 300], bursting: [false, false] },
    { label: 'a script whose actions come just inside the gap', times: [0, 299, 598], bursting: [false, true, true] },
  ])('$label', ({ times, bursting }) => {
    const bursts = new ActionBursts(300, 600);
    expect(times.map((t) => bursts.noteAction(1, t))).toEqual(bursting);
  });

  it('lasts until the quiet time has passed since the last action', () => {
    const bursts = new ActionBursts(300, 600);
    bursts.noteAction(1, 0);
    bursts.noteAction(1, 100);
    expect(bursts.quietIn(1, 100)).toBe(600);
    bursts.noteAction(1, 400); // a slower action keeps the burst going
    expect(bursts.inBurst(1)).toBe(true);
    expect(bursts.quietIn(1, 700)).toBe(300);
    expect(bursts.quietIn(1, 1_000)).toBe(0);
    bursts.end(1);
    expect(bursts.inBurst(1)).toBe(false);
    // After it, one action alone starts no burst; a quick second one does.
    expect(bursts.noteAction(1, 3_000)).toBe(false);
    expect(bursts.quietIn(1, 3_000)).toBe(0);
    expect(bursts.noteAction(1, 3_050)).toBe(true);
  });

  it('keeps tabs apart, and forgets a tab', () => {
    const bursts = new ActionBursts(300, 600);
    bursts.noteAction(1, 0);
    bursts.noteAction(2, 10); // another tab's action is no second action of tab 1
    expect(bursts.inBurst(1)).toBe(false);
    expect(bursts.noteAction(1, 20)).toBe(true);
    bursts.forget(1);
    expect(bursts.inBurst(1)).toBe(false);
    expect(bursts.noteAction(1, 30)).toBe(false);
  });

  it('refuses a quiet time shorter than the gap (a burst would end before its next action could continue it)', () => {
    expect(() => new ActionBursts(300, 200)).toThrow(/at least as long/);
  });
});

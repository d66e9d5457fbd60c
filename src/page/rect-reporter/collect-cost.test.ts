import { describe, expect, it } from 'vitest';
import { createCollectCost } from './collect-cost';

/** A cost meter on a clock the test moves; `run(ms, walked)` is a measurement that took `ms`. */
function meter() {
  let t = 1_000;
  const costs = createCollectCost(() => t);
  return {
    costs,
    run: (ms: number, walked: boolean) =>
      costs.track(() => {
        t += ms;
        return walked;
      }),
    wait: (ms: number) => (t += ms),
  };
}

describe('createCollectCost', () => {
  it('counts nothing before the first measurement', () => {
    const { costs } = meter();
    expect(costs.recent()).toBe(0);
    expect(costs.sinceLastRun()).toBe(Infinity);
    expect([costs.waitBefore(false), costs.waitBefore(true)]).toEqual([0, 0]);
  });

  it('halves the time recently spent every 100 ms, and adds each measurement to it', () => {
    const { costs, run, wait } = meter();
    run(10, true);
    expect(costs.recent()).toBe(10);
    wait(100);
    expect(costs.recent()).toBe(5);
    expect(costs.sinceLastRun()).toBe(100);
    wait(100);
    run(4, false);
    expect(costs.recent()).toBe(2.5 + 4); // decayed to the measurement's start, then its cost added
  });

  it.each([
    ['a cheap walk', 2, true, false, 0],
    ['a slow walk, before a walk', 10, true, false, 80],
    ['a slow walk, before measuring again (not measured yet)', 10, true, true, 0],
    ['a very slow walk: at most 250 ms', 40, true, false, 250],
    ['a slow measuring again, before measuring again', 5, false, true, 40],
    ['a slow measuring again, before a walk (not walked yet)', 5, false, false, 0],
  ])('waits after %s', (_name, ms, walked, remeasures, wait) => {
    const { costs, run } = meter();
    run(ms, walked);
    expect(costs.waitBefore(remeasures)).toBe(wait);
  });

  it('counts the wait from the end of the last measurement', () => {
    const { costs, run, wait } = meter();
    run(10, true);
    wait(30);
    expect(costs.waitBefore(false)).toBe(50);
    wait(60);
    expect(costs.waitBefore(false)).toBe(-10);
  });
});

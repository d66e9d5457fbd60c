import { describe, expect, it } from 'vitest';
import { PAGE_WORK_BUDGET, PageWorkBudget } from './page-work-budget';

describe('PageWorkBudget', () => {
  const limits = { sliceMs: 10, share: 0.25, burstMs: 40 };

  it('lets an ordinary burst through at once, in slices of sliceMs', () => {
    const budget = new PageWorkBudget(limits, 0);
    expect(budget.waitBefore(0)).toBe(0);
    expect(budget.sliceOver(0, 9)).toBe(false);
    expect(budget.sliceOver(0, 10)).toBe(true);
    budget.spend(0, 10);
    expect(budget.waitBefore(10)).toBe(0);
  });

  it('past the burst, makes the work wait until it is back under its share of the time', () => {
    const budget = new PageWorkBudget(limits, 0);
    // 200 ms of work in one slice (a slice cannot be stopped midway): 40 of credit, 160 owed, paid back at 0.25 ms/ms.
    budget.spend(0, 200);
    const wait = budget.waitBefore(200);
    expect(wait).toBeGreaterThan(400);
    expect(budget.waitBefore(200 + wait)).toBe(0);
  });

  it('keeps work under its share over a long flood, whatever each slice took', () => {
    const budget = new PageWorkBudget(limits, 0);
    let t = 0;
    let worked = 0;
    for (let i = 0; i < 1_000; i++) {
      t += budget.waitBefore(t);
      const took = 3 + (i % 7) * 5; // 3–33 ms a slice
      budget.spend(t, t + took);
      worked += took;
      t += took;
    }
    expect(worked / t).toBeLessThanOrEqual(limits.share + limits.burstMs / t + 0.01);
  });

  it('ends a slice early when little credit is left', () => {
    const budget = new PageWorkBudget(limits, 0);
    budget.spend(0, 36); // 4 ms of credit left
    expect(budget.sliceOver(36, 36 + 3)).toBe(false);
    expect(budget.sliceOver(36, 36 + 4)).toBe(true);
  });

  it('refills nothing when the clock goes back', () => {
    const budget = new PageWorkBudget(PAGE_WORK_BUDGET, 1_000);
    budget.spend(1_000, 1_000 + PAGE_WORK_BUDGET.burstMs + 50);
    const wait = budget.waitBefore(500);
    expect(wait).toBeGreaterThan(0);
  });
});

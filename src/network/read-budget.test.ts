import { describe, expect, it } from 'vitest';
import { ReadBudget } from './read-budget';

describe('ReadBudget', () => {
  it('allows a burst, then reads at its rate', () => {
    const budget = new ReadBudget(3, 10, 0);
    expect([0, 0, 0, 0].map((t) => budget.take(t))).toEqual([true, true, true, false]);
    expect(budget.take(50)).toBe(false);
    expect(budget.take(100)).toBe(true);
    expect(budget.take(100)).toBe(false);
  });

  it('refills no further than the burst', () => {
    const budget = new ReadBudget(2, 10, 0);
    expect([60_000, 60_000, 60_000].map((t) => budget.take(t))).toEqual([true, true, false]);
  });

  it('10,000 requests in one second get the burst and a second’s worth', () => {
    const budget = new ReadBudget(100, 50, 0);
    let read = 0;
    for (let i = 0; i < 10_000; i++) if (budget.take(i / 10)) read++;
    expect(read).toBe(149);
  });

  it('a clock going back refills nothing', () => {
    const budget = new ReadBudget(1, 10, 1_000);
    expect(budget.take(1_000)).toBe(true);
    expect(budget.take(0)).toBe(false);
    expect(budget.take(1_050)).toBe(false);
  });
});

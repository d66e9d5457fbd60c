import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS } from '../../schemas/settings';
import { TimelineUpkeep } from './timeline-upkeep';

const keeper = (fail: 'load' | 'clear' | 'applyLimits' | null = null) => {
  const call = (name: string) => vi.fn(async () => {
    if (fail === name) throw new Error('QuotaExceededError');
  });
  return { load: call('load'), clear: call('clear'), applyLimits: call('applyLimits') };
};
const rules = (textPatterns: string[]) => ({ redaction: { ...DEFAULT_SETTINGS.redaction, textPatterns } });

describe('TimelineUpkeep', () => {
  it.each([
    { name: 'the first settings seen', recorded: null, now: ['a'], want: false },
    { name: 'the same rules', recorded: ['a'], now: ['a'], want: false },
    { name: 'other rules', recorded: ['a'], now: ['b'], want: true },
  ])('tells a timeline recorded under other redaction rules: $name', ({ recorded, now, want }) => {
    const upkeep = new TimelineUpkeep(keeper(), vi.fn());
    if (recorded) upkeep.recordUnder(rules(recorded));
    expect(upkeep.recordedUnderOtherRules(rules(now))).toBe(want);
  });

  it.each([
    { fail: 'load' as const, run: (u: TimelineUpkeep) => u.load(), message: '[afr] DOM timeline not loaded: Error: QuotaExceededError' },
    { fail: 'applyLimits' as const, run: (u: TimelineUpkeep) => u.applyLimits(), message: '[afr] DOM timeline limits not applied: Error: QuotaExceededError' },
    { fail: 'clear' as const, run: (u: TimelineUpkeep) => u.clear(), message: '[afr] DOM timeline not cleared: Error: QuotaExceededError' },
  ])('logs a storage failure of $fail, never throws it', async ({ fail, run, message }) => {
    const log = vi.fn();
    await expect(run(new TimelineUpkeep(keeper(fail), log))).resolves.toBeUndefined();
    expect(log).toHaveBeenCalledWith(message);
  });

  it('does nothing without a timeline (capture below trace in a build without one)', async () => {
    const upkeep = new TimelineUpkeep(undefined, vi.fn());
    expect([upkeep.clear(), upkeep.applyLimits()]).toEqual([undefined, undefined]);
    await expect(upkeep.load()).resolves.toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { PageBundleQuota, PageQuotas, PAGE_QUOTAS } from './page-quotas';

describe('PageQuotas', () => {
  it('counts all frames of a tab together, and each tab on its own', () => {
    const quotas = new PageQuotas();
    const taken = (tabId: number, n: number) => Array.from({ length: n }, () => quotas.take(tabId, 'commands', 0)).filter(Boolean).length;
    // 30 frames × 100 posts of one tab at once: one burst's worth.
    expect(taken(7, 3_000)).toBe(PAGE_QUOTAS.commands.burst);
    expect(taken(8, 10)).toBe(10);
  });

  it.each([
    { kind: 'steps', other: 'syntheticSteps' },
    { kind: 'syntheticSteps', other: 'steps' },
    { kind: 'commands', other: 'errors' },
  ] as const)('$kind over the quota leaves $other untouched', ({ kind, other }) => {
    const quotas = new PageQuotas();
    for (let i = 0; i < 1_000; i++) quotas.take(7, kind, 0);
    expect(quotas.take(7, kind, 0)).toBe(false);
    expect(quotas.take(7, other, 0)).toBe(true);
  });

  it('takes a message of characters at once, or none of it', () => {
    const quotas = new PageQuotas({ ...PAGE_QUOTAS, timelineChars: { burst: 1_000, perSecond: 100 } });
    expect(quotas.take(7, 'timelineChars', 0, 600)).toBe(true);
    expect(quotas.take(7, 'timelineChars', 0, 600)).toBe(false);
    expect(quotas.take(7, 'timelineChars', 0, 400)).toBe(true);
    expect(quotas.take(7, 'timelineChars', 2_000, 200)).toBe(true);
    expect(quotas.take(7, 'commands', 2_000)).toBe(true);
  });

  it('refills at the rate, and a closed tab starts afresh', () => {
    const quotas = new PageQuotas({ ...PAGE_QUOTAS, commands: { burst: 2, perSecond: 1 } });
    expect([quotas.take(7, 'commands', 0), quotas.take(7, 'commands', 0), quotas.take(7, 'commands', 0)]).toEqual([true, true, false]);
    expect(quotas.take(7, 'commands', 1_000)).toBe(true);
    quotas.forget(7);
    expect([quotas.take(7, 'commands', 1_000), quotas.take(7, 'commands', 1_000)]).toEqual([true, true]);
  });
});

describe('PageBundleQuota', () => {
  const limits = { perTab: 2, tabWindowMs: 60_000, overall: 3, overallWindowMs: 600_000 };
  const admit = (quota: PageBundleQuota, tabId: number, now: number) => {
    const ok = quota.allows(tabId, now);
    if (ok) quota.record(tabId, now);
    return ok;
  };

  it.each([
    { name: 'two a tab a minute', times: [[7, 0], [7, 1_000], [7, 2_000]], want: [true, true, false] },
    { name: 'again once the minute has passed', times: [[7, 0], [7, 1_000], [7, 60_000]], want: [true, true, true] },
    { name: 'other tabs have their own', times: [[7, 0], [7, 0], [8, 0]], want: [true, true, true] },
    { name: 'and all tabs together a cap', times: [[7, 0], [8, 0], [9, 0], [10, 0]], want: [true, true, true, false] },
    { name: 'the overall cap over its own window', times: [[7, 0], [8, 0], [9, 0], [10, 599_999], [10, 600_000]], want: [true, true, true, false, true] },
  ])('$name', ({ times, want }) => {
    const quota = new PageBundleQuota(limits);
    expect(times.map(([tabId, now]) => admit(quota, tabId!, now!))).toEqual(want);
  });
});

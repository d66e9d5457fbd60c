import { describe, expect, it, vi } from 'vitest';
import { PageGuard } from './page-guard';
import { SIGNAL_BUNDLE_QUOTA } from './page-quotas';

const setup = () => {
  const clock = { t: 0, now() { return this.t; } };
  const log = vi.fn();
  const guard = new PageGuard(clock, log);
  // Asked as the failure jobs ask: the quota first, a refusal counted and warned of.
  const admitBundle = (tabId: number, reason: string) => guard.allowsBundle(tabId) || (guard.refuseBundle(tabId, reason), false);
  const admitSignalBundle = (tabId: number, reason: string) => guard.allowsSignalBundle(tabId) || (guard.refuseSignalBundle(tabId, reason), false);
  return { clock, log, guard, admitBundle, admitSignalBundle };
};

describe('PageGuard', () => {
  it('refuses commands of frames other than the top one unless their origin is allowed, counting them, with one warning', () => {
    const { guard, log } = setup();
    expect(guard.admitCommand(7, { frameId: 0, frameOrigin: 'https://shop.test' }, [])).toBe(true);
    for (let i = 0; i < 30; i++) expect(guard.admitCommand(7, { frameId: 3 + i, frameOrigin: 'https://ads.test' }, [])).toBe(false);
    expect(guard.admitCommand(7, { frameId: 3, frameOrigin: 'https://agent.test' }, ['https://agent.test'])).toBe(true);
    expect(guard.counts().framesRefused).toBe(30);
    expect(log).toHaveBeenCalledTimes(1);
    expect(log).toHaveBeenCalledWith(expect.stringMatching(/ignored a page command from frame 3 of tab 7 \(https:\/\/ads\.test\): only the top frame/));
  });

  it('keeps synthetic steps to their own quota: a synthetic flood does not cost the trusted steps', () => {
    const { guard } = setup();
    const flood = Array.from({ length: 500 }, () => ({ synthetic: true }));
    expect(guard.admitSteps(7, flood)).toHaveLength(20);
    expect(guard.admitSteps(7, [{}, {}, { synthetic: true }])).toEqual([{}, {}]);
    expect(guard.counts().stepsDropped).toBe(481);
  });

  it('warns of a kind of drop at most once per 10 s per tab, with the count since', () => {
    const { guard, log, clock } = setup();
    for (let i = 0; i < 150; i++) guard.admitCommand(7, { frameId: 0 }, []);
    expect(log).toHaveBeenCalledTimes(1);
    clock.t += 10_000;
    for (let i = 0; i < 500; i++) guard.admitCommand(7, { frameId: 0 }, []);
    expect(log).toHaveBeenCalledTimes(2);
    expect(String(log.mock.calls[1]![0])).toMatch(/dropped page commands of tab 7: over the tab's quota.*\(49 more since the last warning\)/);
  });

  it('counts a page bundle once admitted; past the quota it is refused and counted', () => {
    const { guard, clock, admitBundle } = setup();
    for (let i = 0; i < 2; i++) {
      expect(admitBundle(7, 'fail')).toBe(true);
      guard.bundleMade(7);
    }
    expect(admitBundle(7, 'fail')).toBe(false);
    // Asked but not admitted (the cooldown, say): it does not count.
    expect(admitBundle(8, 'fail')).toBe(true);
    expect(admitBundle(8, 'fail')).toBe(true);
    clock.t += 60_000;
    expect(admitBundle(7, 'fail')).toBe(true);
    expect(guard.counts().bundlesRefused).toBe(1);
  });

  it('holds unattended signal bundles to their own quota a tab an hour and in all, apart from the page-command quota', () => {
    const { perTab, overall } = SIGNAL_BUNDLE_QUOTA;
    const { guard, clock, log, admitBundle, admitSignalBundle } = setup();
    for (let i = 0; i < perTab; i++) {
      expect(admitSignalBundle(7, 'page_exception')).toBe(true);
      guard.signalBundleMade(7);
      clock.t += 60_000;
    }
    expect(admitSignalBundle(7, 'page_exception')).toBe(false);
    expect(admitSignalBundle(7, 'http_5xx')).toBe(false);
    // The page's own commands keep their quota.
    expect(admitBundle(7, 'fail')).toBe(true);
    expect(guard.counts()).toMatchObject({ signalBundlesRefused: 2, bundlesRefused: 0 });
    expect(log).toHaveBeenCalledTimes(1);
    expect(log).toHaveBeenCalledWith(
      `[afr] page_exception on tab 7 not bundled: with no agent run, signals make at most ${perTab} bundles a tab an hour and ${overall} an hour in all (afr.runStart lifts this)`,
    );
    // An hour after the first, one more.
    clock.t = 3_600_000;
    expect(admitSignalBundle(7, 'page_exception')).toBe(true);
    // Tabs opened one after the other share the overall quota: tab 7 still holds perTab - 1 of it.
    let made = perTab - 1;
    for (let tab = 100; made < overall - 1; tab++) {
      for (let i = 0; i < perTab && made < overall - 1; i++, made++) {
        expect(admitSignalBundle(tab, 'x')).toBe(true);
        guard.signalBundleMade(tab);
      }
    }
    expect(admitSignalBundle(200, 'x')).toBe(true);
    guard.signalBundleMade(200);
    expect(admitSignalBundle(201, 'x')).toBe(false);
  });
});

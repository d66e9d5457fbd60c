import { TIMELINE_LIMITS } from '../../schemas/content-port';
import { TokenBucket } from '../shared/token-bucket';

/**
 * What a tab's pages may send the worker, all frames of the tab together (a page with 30 iframes gets
 * one tab's worth, not 30). Bursts are generous for an agent acting fast; a flood is cut to the rate.
 */
export const PAGE_QUOTAS = {
  /** Page protocol commands (`step`, `mark`, `assert`, `fail`, …) from the frames allowed to send them. */
  commands: { burst: 100, perSecond: 20 },
  /** Steps the observer saw from trusted input: the agent's clicks and keys, navigations. */
  steps: { burst: 200, perSecond: 50 },
  /**
   * Steps of events the page's own script dispatched (`isTrusted: false`, e.g. `element.click()`):
   * a bucket of their own, so that a page's synthetic flood never crowds out the agent's input.
   */
  syntheticSteps: { burst: 20, perSecond: 5 },
  /** The page-level error reports (the fallback used while no debugger session is attached). */
  errors: { burst: 20, perSecond: 2 },
  /**
   * Characters (as JSON) of the top frame's DOM timeline messages: a burst of one message at its bound
   * (a big page's first snapshot), then 2 Mi a second, some 600 times what a busy agent's page sends
   * (`bench/results/soak.json`). The page reads a flood within its own work budget; this is the
   * backstop that keeps the worker's work a second bounded whatever a page sends. A message over it
   * is dropped (counted in `status().pageLimits.timelineDropped`), and the document's later changes
   * are not kept.
   */
  timelineChars: { burst: TIMELINE_LIMITS.messageChars, perSecond: 2 * 1024 * 1024 },
} as const;
export type PageQuotaKind = keyof typeof PAGE_QUOTAS;
export type PageQuotaLimits = Record<PageQuotaKind, { burst: number; perSecond: number }>;

/** Tabs whose buckets are kept at most (closed tabs are forgotten; this bounds a worker that is never told). */
const MAX_TABS = 512;

/** The per-tab token buckets of `PAGE_QUOTAS`. */
export class PageQuotas {
  private readonly tabs = new Map<number | null, Map<PageQuotaKind, TokenBucket>>();

  constructor(readonly limits: PageQuotaLimits = PAGE_QUOTAS) {}

  /** Takes one of the tab's `kind` tokens at `now` (`amount` of them); false: over the quota. */
  take(tabId: number | null, kind: PageQuotaKind, now: number, amount = 1): boolean {
    let buckets = this.tabs.get(tabId);
    if (!buckets) {
      if (this.tabs.size >= MAX_TABS) this.tabs.clear();
      this.tabs.set(tabId, (buckets = new Map()));
    }
    let bucket = buckets.get(kind);
    if (!bucket) buckets.set(kind, (bucket = new TokenBucket(this.limits[kind].burst, this.limits[kind].perSecond, now)));
    return bucket.take(now, amount);
  }

  forget(tabId: number): void {
    this.tabs.delete(tabId);
  }
}

/**
 * Bundles a page may trigger (its `fail`, failed `assert`, `runEnd`): at most `perTab` per tab within
 * `tabWindowMs`, and `overall` within `overallWindowMs` whatever the tab. The cooldown applies too.
 */
export const PAGE_BUNDLE_QUOTA = { perTab: 2, tabWindowMs: 60_000, overall: 10, overallWindowMs: 600_000 } as const;
export type PageBundleLimits = { [K in keyof typeof PAGE_BUNDLE_QUOTA]: number };

/**
 * Bundles of failure signals (exceptions, 5xx, crashes) on a tab with no agent run: a page can provoke
 * those at will, so at most `perTab` per tab an hour and `overall` an hour whatever the tab (a page can
 * open tabs). During the agent's run its signals are bundled with the cooldown alone.
 */
export const SIGNAL_BUNDLE_QUOTA: PageBundleLimits = { perTab: 10, tabWindowMs: 3_600_000, overall: 30, overallWindowMs: 3_600_000 };

/** The times of the bundles of one kind (a page's, an unattended signal's) made lately, per tab and overall. */
export class PageBundleQuota {
  private readonly byTab = new Map<number | null, number[]>();
  private overall: number[] = [];

  constructor(readonly limits: PageBundleLimits = PAGE_BUNDLE_QUOTA) {}

  /** Whether one more page-triggered bundle of the tab is allowed now. */
  allows(tabId: number | null, now: number): boolean {
    const { perTab, tabWindowMs, overall, overallWindowMs } = this.limits;
    this.overall = this.overall.filter((t) => now - t < overallWindowMs);
    const tab = (this.byTab.get(tabId) ?? []).filter((t) => now - t < tabWindowMs);
    if (tab.length) this.byTab.set(tabId, tab);
    else this.byTab.delete(tabId);
    return tab.length < perTab && this.overall.length < overall;
  }

  /** A page-triggered bundle of the tab was admitted at `now`. */
  record(tabId: number | null, now: number): void {
    this.byTab.set(tabId, [...(this.byTab.get(tabId) ?? []), now]);
    this.overall.push(now);
  }

  /** The tab was closed (the overall count keeps its bundles). */
  forget(tabId: number): void {
    this.byTab.delete(tabId);
  }
}

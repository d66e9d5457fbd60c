import type { Clock } from '../shared/clock';
import { frameMayCommand, type CommandSender } from './frame-policy';
import {
  PageBundleQuota,
  PageQuotas,
  PAGE_BUNDLE_QUOTA,
  PAGE_QUOTAS,
  SIGNAL_BUNDLE_QUOTA,
  type PageBundleLimits,
  type PageQuotaKind,
  type PageQuotaLimits,
} from './page-quotas';
import { ThrottledLog } from './throttled-log';

/** What the worker refused or dropped of what pages sent, since it started (`afr.status().pageLimits`). */
export interface PageLimitCounts {
  /** Page commands from a frame that may not speak for the page (not the top one, origin not allow-listed). */
  framesRefused: number;
  /** A page's `runStart`/`runEnd` where the agent's run is active, or `runEnd` where the page declared none. */
  runCommandsRefused: number;
  /** Page commands over the tab's quota. */
  commandsDropped: number;
  /** Observed steps over the tab's quota (trusted and synthetic). */
  stepsDropped: number;
  /** Page-level error reports over the tab's quota. */
  errorsDropped: number;
  /** Page-triggered bundles over their quota (not made; the failure is on the timeline). */
  bundlesRefused: number;
  /** Bundles of signals on a tab with no agent run over their quota (not made; the signal is on the timeline). */
  signalBundlesRefused: number;
  /** DOM timeline messages of a top frame over the tab's quota of characters (dropped; the document's later changes are not kept). */
  timelineDropped: number;
}

/**
 * The page's trust boundary in the worker, which knows each message's tab and frame (the content
 * script runs in the page's process and cannot vouch for its frame). Decides which page messages
 * count, keeps the per-tab quotas and page-bundle quota, counts what it refused, and warns (at most
 * once per 10 s per kind and tab).
 */
export class PageGuard {
  private readonly quotas: PageQuotas;
  private readonly bundles: PageBundleQuota;
  private readonly signalBundles: PageBundleQuota;
  private readonly warnings: ThrottledLog;
  private readonly dropped: PageLimitCounts = { framesRefused: 0, runCommandsRefused: 0, commandsDropped: 0, stepsDropped: 0, errorsDropped: 0, bundlesRefused: 0, signalBundlesRefused: 0, timelineDropped: 0 };

  constructor(
    private readonly clock: Clock,
    log: (message: string) => void,
    limits: { quotas?: PageQuotaLimits; bundles?: PageBundleLimits; signalBundles?: PageBundleLimits } = {},
  ) {
    this.quotas = new PageQuotas(limits.quotas ?? PAGE_QUOTAS);
    this.bundles = new PageBundleQuota(limits.bundles ?? PAGE_BUNDLE_QUOTA);
    this.signalBundles = new PageBundleQuota(limits.signalBundles ?? SIGNAL_BUNDLE_QUOTA);
    this.warnings = new ThrottledLog(log);
  }

  /** A page command of the tab: from a frame that may speak for the page, and within the tab's quota. */
  admitCommand(tabId: number | null, sender: CommandSender, allowedOrigins: readonly string[]): boolean {
    const now = this.clock.now();
    if (!frameMayCommand(sender, allowedOrigins)) {
      this.dropped.framesRefused++;
      const from = sender.frameOrigin ? ` (${sender.frameOrigin})` : '';
      this.warnings.warn(`frame:${tabId}`, now, `[afr] ignored a page command from frame ${sender.frameId} of tab ${tabId}${from}: only the top frame speaks for the page (pageCommandFrameOrigins allows others)`);
      return false;
    }
    return this.take(tabId, 'commands', now);
  }

  /** The steps of a message within the tab's quota, in order; synthetic ones take from their own bucket. */
  admitSteps<S extends { synthetic?: boolean }>(tabId: number | null, steps: readonly S[]): S[] {
    const now = this.clock.now();
    return steps.filter((s) => this.take(tabId, s.synthetic ? 'syntheticSteps' : 'steps', now));
  }

  /** A page-level error report of the tab, within its quota. */
  admitError(tabId: number | null): boolean {
    return this.take(tabId, 'errors', this.clock.now());
  }

  /** A DOM timeline message of the tab, `chars` long as JSON, within the tab's quota of characters. */
  admitTimeline(tabId: number | null, chars: number): boolean {
    const now = this.clock.now();
    if (this.quotas.take(tabId, 'timelineChars', now, chars)) return true;
    this.dropped.timelineDropped++;
    const { perSecond } = this.quotas.limits.timelineChars;
    this.warnings.warn(
      `timeline:${tabId}`,
      now,
      `[afr] the DOM timeline of tab ${tabId} sends more than ${perSecond} characters a second: a message of ${chars} dropped (status().pageLimits.timelineDropped); the page's later changes are not kept`,
    );
    return false;
  }

  /** A page's `runStart`/`runEnd` was refused (`why` follows the command in the warning). */
  refuseRunCommand(tabId: number | null, kind: string, why: string): void {
    this.dropped.runCommandsRefused++;
    this.warnings.warn(`run:${tabId}`, this.clock.now(), `[afr] ignored the page's ${kind} on tab ${tabId}: ${why}`);
  }

  /** Whether the page-bundle quota allows one more bundle the tab's page triggers now (`bundleMade` once it is admitted). */
  allowsBundle(tabId: number | null): boolean {
    return this.bundles.allows(tabId, this.clock.now());
  }

  /** A bundle the tab's page triggered was refused for the quota: counted, and warned of. */
  refuseBundle(tabId: number | null, reason: string): void {
    this.dropped.bundlesRefused++;
    const { perTab, tabWindowMs, overall, overallWindowMs } = this.bundles.limits;
    this.warnings.warn(
      `bundle:${tabId}`,
      this.clock.now(),
      `[afr] ${reason} of the page on tab ${tabId} not bundled: a page triggers at most ${perTab} bundles a tab in ${tabWindowMs / 1000} s and ${overall} in ${overallWindowMs / 1000} s`,
    );
  }

  /** A page-triggered bundle of the tab was admitted: it counts against the quota. */
  bundleMade(tabId: number | null): void {
    this.bundles.record(tabId, this.clock.now());
  }

  /**
   * Whether the signal-bundle quota allows one more bundle of a failure signal on a tab with no agent
   * run now (`signalBundleMade` once it is admitted): the page provoked it, so it is held to its own quota.
   */
  allowsSignalBundle(tabId: number | null): boolean {
    return this.signalBundles.allows(tabId, this.clock.now());
  }

  /** An unattended signal's bundle was refused for the quota: counted, and warned of. */
  refuseSignalBundle(tabId: number | null, reason: string): void {
    this.dropped.signalBundlesRefused++;
    const { perTab, overall } = this.signalBundles.limits;
    this.warnings.warn(
      `signal-bundle:${tabId}`,
      this.clock.now(),
      `[afr] ${reason} on tab ${tabId} not bundled: with no agent run, signals make at most ${perTab} bundles a tab an hour and ${overall} an hour in all (afr.runStart lifts this)`,
    );
  }

  /** An unattended signal's bundle of the tab was admitted: it counts against the signal-bundle quota. */
  signalBundleMade(tabId: number | null): void {
    this.signalBundles.record(tabId, this.clock.now());
  }

  counts(): PageLimitCounts {
    return { ...this.dropped };
  }

  /** The tab was closed. */
  forget(tabId: number): void {
    this.quotas.forget(tabId);
    this.bundles.forget(tabId);
    this.signalBundles.forget(tabId);
    this.warnings.forget(`:${tabId}`);
  }

  private take(tabId: number | null, kind: PageQuotaKind, now: number): boolean {
    if (this.quotas.take(tabId, kind, now)) return true;
    const counter = kind === 'commands' ? 'commandsDropped' : kind === 'errors' ? 'errorsDropped' : 'stepsDropped';
    this.dropped[counter]++;
    const { burst, perSecond } = this.quotas.limits[kind];
    this.warnings.warn(`${kind}:${tabId}`, now, `[afr] dropped ${QUOTA_NAMES[kind]} of tab ${tabId}: over the tab's quota (${burst} at once, then ${perSecond} a second, all its frames together)`);
    return false;
  }
}

const QUOTA_NAMES: Record<PageQuotaKind, string> = {
  commands: 'page commands',
  steps: 'observed steps',
  syntheticSteps: 'steps of synthetic (untrusted) events',
  errors: 'page error reports',
  timelineChars: 'DOM timeline messages',
};

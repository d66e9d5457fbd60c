import type { BundleSummary, WaitForBundleInput } from '../../schemas/api';
import { BUNDLE_ID_PATTERN } from '../bundle/bundle-id';
import { newestFirst, type BundleSink, type BundleStore } from '../bundle/ports';
import type { Clock } from '../shared/clock';
import { RecorderInputError } from './input-checks';

/** Where a wait starts: bundles created at or after `createdAt`, or after the bundle `afterId`. */
interface WaitStart {
  createdAt: string;
  afterId: string | null;
}

interface Waiter {
  matches(summary: BundleSummary): boolean;
  resolve(summary: BundleSummary): void;
}

/** Whether the bundle comes after the start, in the order of `newestFirst`. */
function isAfter(summary: BundleSummary, start: WaitStart): boolean {
  if (start.afterId === null) return summary.createdAt >= start.createdAt;
  return summary.createdAt > start.createdAt || (summary.createdAt === start.createdAt && summary.id > start.afterId);
}

/**
 * `afr.waitForBundle`: callers waiting for the next bundle, woken by a sink as each bundle is stored
 * (no polling in the worker). Automatic bundles (signals, pages, the operator) wake them like the
 * agent's own.
 */
export class BundleWaiters {
  private readonly waiting = new Set<Waiter>();

  constructor(
    private readonly bundles: Pick<BundleStore, 'list'>,
    private readonly clock: Clock,
  ) {}

  /** Wakes the waiters a stored bundle matches. Runs after the other sinks: the summary has its download id. */
  readonly sink: BundleSink = {
    name: 'waiters',
    afterStore: async ({ summary }) => {
      for (const waiter of [...this.waiting]) if (waiter.matches(summary)) waiter.resolve(summary);
    },
  };

  /** How many calls are waiting now. */
  get size(): number {
    return this.waiting.size;
  }

  /**
   * The first bundle (the oldest) after `since` with the given reason and trigger, stored already or
   * within `timeoutMs`; null when none came.
   */
  async wait(input: WaitForBundleInput): Promise<BundleSummary | null> {
    const start = await this.startOf(input.since);
    const matches = (s: BundleSummary) =>
      isAfter(s, start) && (input.reason === undefined || s.reason === input.reason) && (input.trigger === undefined || s.trigger === input.trigger);
    let waiter: Waiter | undefined;
    // Listening before the store is read: a bundle stored in between is not missed.
    const arrived = new Promise<BundleSummary>((resolve) => {
      waiter = { matches, resolve };
      this.waiting.add(waiter);
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const stored = (await this.bundles.list()).filter(matches).sort(newestFirst).at(-1);
      if (stored) return stored;
      if (input.timeoutMs === 0) return null;
      const late = new Promise<null>((resolve) => {
        timer = setTimeout(() => resolve(null), input.timeoutMs);
      });
      return await Promise.race([arrived, late]);
    } finally {
      clearTimeout(timer);
      this.waiting.delete(waiter!);
    }
  }

  private async startOf(since: WaitForBundleInput['since']): Promise<WaitStart> {
    if (since === undefined) return { createdAt: new Date(this.clock.now()).toISOString(), afterId: null };
    if (typeof since === 'string' && BUNDLE_ID_PATTERN.test(since)) {
      const bundle = (await this.bundles.list()).find((b) => b.id === since);
      if (!bundle) throw new RecorderInputError(`afr.waitForBundle: since: no stored bundle with id ${since}`);
      return { createdAt: bundle.createdAt, afterId: bundle.id };
    }
    const ms = typeof since === 'number' ? since : Date.parse(since);
    if (!Number.isFinite(ms) || !Number.isFinite(new Date(ms).getTime())) {
      throw new RecorderInputError(`afr.waitForBundle: since: ${JSON.stringify(since)} is neither a time nor a bundle id`);
    }
    return { createdAt: new Date(ms).toISOString(), afterId: null };
  }
}

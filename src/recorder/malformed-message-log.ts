import type { Clock } from '../shared/clock';

/** A tab's malformed messages are logged at most once per this many ms. */
export const MALFORMED_LOG_SPACING_MS = 10_000;
/** Senders remembered at most; past that, all are forgotten (each one's next drop is logged at once). */
const MAX_SENDERS = 256;

/**
 * Logs dropped messages: the first of a tab's, then at most one per `MALFORMED_LOG_SPACING_MS` with
 * the count dropped since (a page bug in a frequent message must not flood the worker's console).
 */
export class MalformedMessageLog {
  /** Per sender tab, when a malformed message was last logged and how many were dropped since without a word. */
  private readonly senders = new Map<number | null, { loggedAt: number; unlogged: number }>();

  constructor(
    private readonly clock: Clock,
    private readonly log: (message: string) => void,
  ) {}

  /** A message of the tab was dropped; `detail` says why (it follows the tab in the log line). */
  dropped(tabId: number | null, detail: string): void {
    const now = this.clock.now();
    const seen = this.senders.get(tabId);
    if (seen && now - seen.loggedAt < MALFORMED_LOG_SPACING_MS) {
      seen.unlogged++;
      return;
    }
    if (!seen && this.senders.size >= MAX_SENDERS) this.senders.clear();
    const since = seen?.unlogged ? ` (${seen.unlogged} more dropped without a warning since the last one)` : '';
    this.senders.set(tabId, { loggedAt: now, unlogged: 0 });
    this.log(`[afr] dropped a malformed message from tab ${tabId}${detail}${since}`);
  }

  /** The tab was closed. */
  forget(tabId: number): void {
    this.senders.delete(tabId);
  }
}

import type { Clock } from '../shared/clock';
import { ThrottledLog, WARNING_SPACING_MS } from '../trust/throttled-log';

/** A tab's malformed messages are logged at most once per this many ms. */
export const MALFORMED_LOG_SPACING_MS = WARNING_SPACING_MS;

/**
 * Logs dropped messages: the first of a tab's, then at most one per `MALFORMED_LOG_SPACING_MS` with
 * the count dropped since (a page bug in a frequent message must not flood the worker's console).
 * The throttling is `ThrottledLog`'s, keyed by the sender tab.
 */
export class MalformedMessageLog {
  private readonly lines: ThrottledLog;

  constructor(
    private readonly clock: Clock,
    log: (message: string) => void,
  ) {
    this.lines = new ThrottledLog(log, (unlogged) => ` (${unlogged} more dropped without a warning since the last one)`);
  }

  /** A message of the tab was dropped; `detail` says why (it follows the tab in the log line). */
  dropped(tabId: number | null, detail: string): void {
    this.lines.warn(`tab:${tabId}`, this.clock.now(), `[afr] dropped a malformed message from tab ${tabId}${detail}`);
  }

  /** The tab was closed. */
  forget(tabId: number): void {
    this.lines.forget(`:${tabId}`);
  }
}

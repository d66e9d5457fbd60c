import type { Clock } from '../shared/clock';
import type { MaskGate } from './mask-gate';

/**
 * Whether a tab's page still owes its first frame: it started loading a document, has reported its
 * sensitive regions (a frame of it can be masked), and no frame of it was stored since. A tab not
 * seen loading (before the worker started) owes none.
 */
export class FirstFrameOwed {
  private readonly navigatedAt = new Map<number, number>();

  constructor(
    private readonly clock: Clock,
    private readonly gate: Pick<MaskGate, 'knows' | 'latestFrameAt'>,
  ) {}

  /** The tab started loading a new document. */
  navigated(tabId: number): void {
    this.navigatedAt.set(tabId, this.clock.now());
  }

  /** Whether the tab's page has reported but no frame of it was stored since it started loading. */
  owed(tabId: number): boolean {
    const at = this.navigatedAt.get(tabId);
    return at !== undefined && this.gate.knows(tabId) && (this.gate.latestFrameAt(tabId) ?? -Infinity) < at;
  }

  forget(tabId: number): void {
    this.navigatedAt.delete(tabId);
  }
}

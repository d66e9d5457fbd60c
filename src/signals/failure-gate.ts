import type { GateFacts } from './signal-decision';

/**
 * What decides whether a failure signal's bundle may start now, per tab: one failure storm (an
 * exception loop, a page posting `fail` every frame) must not produce dozens of bundles. Keeps when
 * each tab's last bundle was admitted, whether one is being packaged, and how many signals were
 * dropped since; `decideSignal` weighs them (the cooldown, the packaging).
 */
export class FailureGate {
  private readonly lastAdmitted = new Map<number | 'none', number>();
  private readonly suppressed = new Map<number | 'none', number>();
  private readonly packaging = new Set<number | 'none'>();

  constructor(private cooldownMs: number) {}

  setCooldown(ms: number): void {
    this.cooldownMs = ms;
  }

  /** The tab's state at `now`, for the decision. Signals with no tab share one state. */
  state(tabId: number | null, now: number): GateFacts {
    const key = tabId ?? 'none';
    const last = this.lastAdmitted.get(key);
    return { packaging: this.packaging.has(key), sinceLastMs: last === undefined ? null : now - last, cooldownMs: this.cooldownMs };
  }

  /** A signal of the tab was dropped by the gate: its next bundle counts it. */
  suppress(tabId: number | null): void {
    const key = tabId ?? 'none';
    this.suppressed.set(key, (this.suppressed.get(key) ?? 0) + 1);
  }

  /**
   * A bundle of the tab was admitted at `now`: its packaging starts and the cooldown runs from now.
   * Returns how many of the tab's signals were dropped since its previous bundle.
   */
  begin(tabId: number | null, now: number): number {
    const key = tabId ?? 'none';
    const suppressedBefore = this.suppressed.get(key) ?? 0;
    this.suppressed.set(key, 0);
    this.lastAdmitted.set(key, now);
    this.packaging.add(key);
    return suppressedBefore;
  }

  /** Packaging for the tab ended (bundle written or failed); the cooldown runs from the admission. */
  done(tabId: number | null): void {
    this.packaging.delete(tabId ?? 'none');
  }

  /** The tab was closed: what the gate knew of it goes (a bundle being packaged still ends with `done`). */
  forget(tabId: number): void {
    this.lastAdmitted.delete(tabId);
    this.suppressed.delete(tabId);
  }

  get busy(): boolean {
    return this.packaging.size > 0;
  }
}

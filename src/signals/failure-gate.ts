/**
 * Decides whether a failure signal becomes a bundle. One failure storm (an exception loop, a page
 * posting `fail` every frame) must not produce dozens of bundles: after a bundle for a tab, further
 * signals of that tab within the cooldown are counted and dropped, and so are signals that arrive
 * while that tab's bundle is still being packaged.
 */
export class FailureGate {
  private readonly lastAdmitted = new Map<number | 'none', number>();
  private readonly suppressed = new Map<number | 'none', number>();
  private readonly packaging = new Set<number | 'none'>();

  constructor(private cooldownMs: number) {}

  setCooldown(ms: number): void {
    this.cooldownMs = ms;
  }

  /**
   * Admits the signal (and starts its packaging) or says why not. An explicit request from the
   * agent's harness (`ignoreCooldown`) is not part of a storm and skips the cooldown, but never runs
   * beside another packaging of the same tab.
   */
  admit(
    tabId: number | null,
    now: number,
    { ignoreCooldown = false } = {},
  ): { admitted: true; suppressedBefore: number } | { admitted: false; why: string } {
    const key = tabId ?? 'none';
    const last = this.lastAdmitted.get(key);
    if (this.packaging.has(key)) return this.suppress(key, 'a bundle for this tab is being packaged');
    if (!ignoreCooldown && last !== undefined && now - last < this.cooldownMs) {
      return this.suppress(key, `cooldown: last bundle for this tab ${now - last} ms ago`);
    }
    const suppressedBefore = this.suppressed.get(key) ?? 0;
    this.suppressed.set(key, 0);
    this.lastAdmitted.set(key, now);
    this.packaging.add(key);
    return { admitted: true, suppressedBefore };
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

  private suppress(key: number | 'none', why: string): { admitted: false; why: string } {
    this.suppressed.set(key, (this.suppressed.get(key) ?? 0) + 1);
    return { admitted: false, why };
  }
}

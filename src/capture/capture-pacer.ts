/**
 * Spaces capture calls so they stay inside Chrome's quota of 2 `captureVisibleTab` calls a second.
 * Exactly 500 ms apart can still be refused, so the floor is 550 ms; after a refusal the next call
 * waits a full second rather than burn another call on the same error.
 */
export class CapturePacer {
  static readonly MIN_SPACING_MS = 550;
  static readonly QUOTA_BACKOFF_MS = 1_000;
  private nextAllowedAt = 0;
  private lastCallAt = Number.NEGATIVE_INFINITY;

  constructor(private spacingMs: number) {
    this.spacingMs = Math.max(spacingMs, CapturePacer.MIN_SPACING_MS);
  }

  setSpacing(spacingMs: number): void {
    this.spacingMs = Math.max(spacingMs, CapturePacer.MIN_SPACING_MS);
  }

  /** Milliseconds to wait before the next call may be made (0 when it may be made now). */
  delayUntilAllowed(now: number): number {
    return Math.max(0, this.nextAllowedAt - now);
  }

  /**
   * Milliseconds until the next periodic capture: one interval after the previous call started (not
   * after it finished, so the time a capture takes does not lower the frame rate), and never
   * before the quota allows.
   */
  delayUntilPeriodic(now: number): number {
    return Math.max(this.delayUntilAllowed(now), this.lastCallAt + this.spacingMs - now);
  }

  /**
   * A round that made no call (no tab to capture, or listing the tabs failed): the next periodic
   * round is still one interval away, not due at once.
   */
  recordIdleRound(now: number): void {
    this.lastCallAt = now;
  }

  recordCall(now: number): void {
    this.lastCallAt = now;
    this.nextAllowedAt = now + CapturePacer.MIN_SPACING_MS;
  }

  recordQuotaError(now: number): void {
    this.nextAllowedAt = now + CapturePacer.QUOTA_BACKOFF_MS;
  }
}

/**
 * Spaces capture calls so they stay inside Chrome's quota of 2 `captureVisibleTab` calls a second.
 * Exactly 500 ms apart can still be refused, so the floor is 550 ms; after a refusal the next call
 * waits a full second rather than burn another call on the same error.
 */
export class CapturePacer {
  static readonly MIN_SPACING_MS = 550;
  static readonly QUOTA_BACKOFF_MS = 1_000;
  private nextAllowedAt = 0;

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

  /** The earliest call a capture-on-action may make: quota spacing only, not the regular interval. */
  recordCall(now: number): void {
    this.nextAllowedAt = now + CapturePacer.MIN_SPACING_MS;
  }

  recordQuotaError(now: number): void {
    this.nextAllowedAt = now + CapturePacer.QUOTA_BACKOFF_MS;
  }

  /** The regular interval between two periodic captures. */
  get interval(): number {
    return this.spacingMs;
  }
}

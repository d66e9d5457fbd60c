/**
 * A token bucket: `capacity` tokens at once, refilled at `perSecond`. Time is passed in, so the rule
 * is tested without a clock; a clock set back refills nothing. Plain arithmetic only, no builtins: it
 * also runs in the page's own world, where page scripts may have replaced `Math`.
 */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    readonly capacity: number,
    readonly perSecond: number,
    now: number,
  ) {
    this.tokens = capacity;
    this.last = now;
  }

  /** Takes a token if there is one. */
  take(now: number): boolean {
    if (now > this.last) {
      this.tokens += ((now - this.last) / 1000) * this.perSecond;
      if (this.tokens > this.capacity) this.tokens = this.capacity;
      this.last = now;
    }
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

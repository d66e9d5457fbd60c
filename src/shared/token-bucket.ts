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

  /** Takes a token if there is one; `amount` tokens at once (a message's size) if there are that many. */
  take(now: number, amount = 1): boolean {
    if (now > this.last) {
      this.tokens += ((now - this.last) / 1000) * this.perSecond;
      if (this.tokens > this.capacity) this.tokens = this.capacity;
      this.last = now;
    }
    if (this.tokens < amount) return false;
    this.tokens -= amount;
    return true;
  }
}

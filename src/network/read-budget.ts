/**
 * How many response bodies one tab may have read out of the debugger session: a bucket of `burst`
 * reads, refilled at `perSecond`. A page making thousands of requests gets its first bodies and then
 * a steady trickle, never a flood of `Network.getResponseBody` calls on the session the screencast and
 * the signals share (the reads in flight are capped apart, see `NetworkLog`).
 */
export class ReadBudget {
  private tokens: number;
  private last: number;

  constructor(
    private readonly burst: number,
    private readonly perSecond: number,
    now: number,
  ) {
    this.tokens = burst;
    this.last = now;
  }

  /** Takes one read if the budget allows it now. */
  take(now: number): boolean {
    // A clock that went back (the wall clock set) refills nothing and takes nothing away.
    const elapsed = Math.max(0, now - this.last);
    this.tokens = Math.min(this.burst, this.tokens + (elapsed / 1000) * this.perSecond);
    this.last = Math.max(this.last, now);
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

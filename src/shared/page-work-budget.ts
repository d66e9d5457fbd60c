/**
 * How much of a page's main thread the recorder's work on its DOM changes may take: a page flooding
 * its DOM (hundreds of nodes rewritten with huge values every task) pays for its own flood, not the
 * recorder's reading of it. Work is done in slices of `sliceMs`, and over any stretch of time the
 * slices take at most `share` of it, with `burstMs` at once for an ordinary burst of changes (a page
 * rendering a list). What is not read at once waits, merged with what changes meanwhile: an element
 * rewritten ten times while waiting is read once, as it is then.
 */
export const PAGE_WORK_BUDGET = { sliceMs: 12, share: 0.25, burstMs: 100 } as const;
export type PageWorkLimits = { readonly [K in keyof typeof PAGE_WORK_BUDGET]: number };

/**
 * The page-side budget of `PAGE_WORK_BUDGET` as a bucket of milliseconds, refilled at `share` ms per
 * ms and spent by the time each slice took (it may go below zero: a slice cannot be stopped midway,
 * and the wait after it pays for it). Time is passed in. Plain arithmetic only: it runs in the page.
 */
export class PageWorkBudget {
  private credit: number;
  private last: number;
  /** Slices that had to wait for the budget, since the start. */
  deferred = 0;

  constructor(
    readonly limits: PageWorkLimits = PAGE_WORK_BUDGET,
    now = 0,
  ) {
    this.credit = limits.burstMs;
    this.last = now;
  }

  private refill(now: number): void {
    if (now <= this.last) return;
    this.credit += (now - this.last) * this.limits.share;
    if (this.credit > this.limits.burstMs) this.credit = this.limits.burstMs;
    this.last = now;
  }

  /** Milliseconds to wait before the next slice may start (0: now). */
  waitBefore(now: number): number {
    this.refill(now);
    return this.credit > 0 ? 0 : Math.ceil(-this.credit / this.limits.share) + 1;
  }

  /** Whether a slice started at `started` must end now (it has had its `sliceMs`, or the budget is spent). */
  sliceOver(started: number, now: number): boolean {
    return now - started >= this.limits.sliceMs || now - started >= this.credit;
  }

  /** A slice ran from `started` to `ended`. */
  spend(started: number, ended: number): void {
    this.refill(ended);
    if (ended > started) this.credit -= ended - started;
  }
}

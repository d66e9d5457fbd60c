/**
 * A report slower than this is not repeated every animation frame, but after a pause of 8× its cost;
 * what the next one will cost: a walk of the page, or measuring again what the last walk found.
 */
export const CHEAP_COLLECT_MS = 2;
/** The longest pause a slow report imposes on the next one. */
const MAX_PAUSE_MS = 250;
/** The time recently spent collecting halves every this many ms. */
const HALF_LIFE_MS = 100;

/** What measuring the regions has cost lately: the pacer's input. */
export interface CollectCost {
  /** Runs `work` (a measurement; true when it walked the page, false when it measured again) and counts its cost. */
  track(work: () => boolean): void;
  /** Time spent collecting lately: each measurement adds its cost, and the sum halves every 100 ms. */
  recent(): number;
  /** How long ago the last measurement ended (Infinity before the first). */
  sinceLastRun(): number;
  /**
   * How long the next measurement waits, by what it will cost (`remeasures`: it will measure again,
   * else walk): after a run, 8 times that cost (at most 250 ms) when over `CHEAP_COLLECT_MS`. Scrolling
   * a page whose DOM stays as it was is measured again, cheap, every frame, though its last walk was slow.
   */
  waitBefore(remeasures: boolean): number;
}

/** Counts what measurements cost on the monotonic clock `now` (ms). */
export function createCollectCost(now: () => number): CollectCost {
  let lastRun = -Infinity;
  /** What the last walk of the page cost, and the last measuring again of what it found (ms). */
  let walkCost = 0;
  let remeasureCost = 0;
  let recentCost = 0;
  const recent = () => recentCost * 0.5 ** ((now() - lastRun) / HALF_LIFE_MS);
  return {
    track(work) {
      recentCost = recent();
      const start = now();
      const walked = work();
      lastRun = now();
      const cost = lastRun - start;
      if (walked) walkCost = cost;
      else remeasureCost = cost;
      recentCost += cost;
    },
    recent,
    sinceLastRun: () => now() - lastRun,
    waitBefore(remeasures) {
      const cost = remeasures ? remeasureCost : walkCost;
      return cost > CHEAP_COLLECT_MS ? lastRun + Math.min(MAX_PAUSE_MS, cost * 8) - now() : 0;
    },
  };
}

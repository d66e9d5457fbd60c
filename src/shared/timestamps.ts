/** Largest gap tolerated between a context's own timestamp and the recorder's receipt time. */
export const MAX_CLOCK_SKEW_MS = 5_000;

/**
 * One clock for the timeline: a timestamp reported by another context is kept (it is closer to the
 * action) unless it is further than `MAX_CLOCK_SKEW_MS` from the receipt time, as it is when a page
 * fakes its clock or a message waited in a queue; then the receipt time is used. `maxPastMs` allows a
 * report known to come late (an exception replayed, or reported after a worker started) to be older.
 */
export function reconcileTimestamp(reported: number, received: number, maxPastMs = MAX_CLOCK_SKEW_MS): number {
  return Number.isFinite(reported) && reported - received <= MAX_CLOCK_SKEW_MS && received - reported <= maxPastMs ? reported : received;
}

/*
 * Which step caused which request, by time and tab alone (steps do not name requests): a request's
 * step is the last action of the HAR's tab at or before its start, and a step's requests are those
 * that started from it until the next action. The agent's and the page's steps are actions; the
 * recorder's own (signals, notes) cause nothing.
 */

/** What the linking needs of a step. */
export interface StepMoment {
  ts: number;
  /** Absent from a tolerant reading: taken as no tab. */
  tab_id?: number | null;
  source: string;
}

/** The links both ways, by 0-based index: `stepOfRequest[r]` (-1 when none), `requestsOfStep[s]` (ascending). */
export interface RequestStepLinks {
  stepOfRequest: number[];
  requestsOfStep: number[][];
}

/**
 * Links requests (their start times, ms, in HAR order) to steps (in `steps.json` order, by time) of
 * the tab `tabId`. A step on no tab (`tab_id` null or absent: the agent's own words) links when the bundle has
 * one tab's requests anyway: it still happened just before them.
 * @example linkRequestsToSteps([{ ts: 10, tab_id: 1, source: 'agent' }], [12, 5], 1).stepOfRequest // [0, -1]
 */
export function linkRequestsToSteps(steps: readonly StepMoment[], requestStarts: readonly number[], tabId: number | null): RequestStepLinks {
  const actions = steps
    .map((step, index) => ({ ts: step.ts, index, step }))
    .filter(({ step }) => step.source !== 'recorder' && (step.tab_id == null || tabId === null || step.tab_id === tabId))
    .sort((a, b) => a.ts - b.ts || a.index - b.index);
  const requestsOfStep: number[][] = steps.map(() => []);
  const stepOfRequest = requestStarts.map((start, r) => {
    if (!Number.isFinite(start)) return -1;
    // The last action at or before the start (binary search: a long run has thousands of each).
    let lo = 0;
    let hi = actions.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (actions[mid]!.ts <= start) lo = mid + 1;
      else hi = mid;
    }
    const step = lo > 0 ? actions[lo - 1]!.index : -1;
    if (step >= 0) requestsOfStep[step]!.push(r);
    return step;
  });
  return { stepOfRequest, requestsOfStep };
}

import type { HarFile } from '../../schemas/network';
import type { Step } from '../../schemas/steps';
import { requestRow, type RequestRow } from '../bundle-format/har-entry-view';
import { linkRequestsToSteps } from '../bundle-format/request-steps';

/*
 * The Network panel's model, pure: each request of `network.har` as a row with its bar on a time axis
 * shared by all of them (the bundle's window, stretched to the requests that started before it or ended
 * after it), the failure's place on that axis, and which step caused which request.
 */

/** A row of the waterfall: the request and its bar, as fractions (0–1) of the axis. */
export interface WaterfallRow extends RequestRow {
  left: number;
  width: number;
  /** The step that caused it (0-based index in `steps.json`), -1 when none. */
  step: number;
}

export interface Waterfall {
  rows: WaterfallRow[];
  /** Requests of the HAR, when `rows` holds only the last `MAX_WATERFALL_ROWS`. */
  total: number;
  /** The axis, ms since the epoch. */
  from: number;
  to: number;
  /** Where the failure falls on the axis (0–1). */
  failureAt: number;
  /** The requests each step caused, as indexes into `rows`. */
  requestsOfStep: number[][];
}

/** Rows one panel shows: the last ones (nearest the failure); `afr requests` lists them all. */
export const MAX_WATERFALL_ROWS = 2_000;
/** Narrowest bar, as a fraction of the axis, so that a 1 ms request is still seen and clicked. */
const MIN_BAR = 0.004;

/**
 * The waterfall of `har` over the window `[windowStart, windowEnd]` (the manifest's), the failure at
 * `failureTs`, requests linked to the `steps` of tab `tabId` by time.
 * @example waterfallOf(har, steps, 7, start, end, failure).rows[0].left // 0.25
 */
export function waterfallOf(har: HarFile, steps: readonly Step[], tabId: number | null, windowStart: number, windowEnd: number, failureTs: number): Waterfall {
  const all = har.log.entries.map(requestRow);
  const links = linkRequestsToSteps(steps, all.map((r) => r.started_ts), tabId);
  const skip = Math.max(0, all.length - MAX_WATERFALL_ROWS);
  const kept = all.slice(skip).filter((r) => Number.isFinite(r.started_ts));
  const from = Math.min(windowStart, ...kept.map((r) => r.started_ts));
  const to = Math.max(windowEnd, failureTs, ...kept.map((r) => r.started_ts + r.time_ms));
  const span = Math.max(1, to - from);
  const rows = kept.map((row): WaterfallRow => {
    const left = (row.started_ts - from) / span;
    return { ...row, left, width: Math.min(1 - left, Math.max(MIN_BAR, row.time_ms / span)), step: links.stepOfRequest[row.index - 1] ?? -1 };
  });
  const rowOf = new Map(rows.map((row, i) => [row.index - 1, i]));
  const requestsOfStep = links.requestsOfStep.map((requests) => requests.flatMap((r) => (rowOf.has(r) ? [rowOf.get(r)!] : [])));
  return { rows, total: all.length, from, to, failureAt: (failureTs - from) / span, requestsOfStep };
}

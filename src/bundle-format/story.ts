import type { FrameInfo } from './frame-time';

/*
 * One story in every reader (the viewer, `viewer.html`, `afr`, the MCP tools, summary.md): which
 * number a step goes by, which frame is a step's, which frame is "the screen at the failure" and which
 * step failed. Each reader asks these functions and never decides on its own.
 *
 * Steps go by their 1-based position in `steps.json` (#1 … #N): dense, so "#17 of 19" reads as
 * where it is, and the number `afr step <zip> N` and the MCP tools have always taken. A step's
 * `seq` (the order the recorder received steps in) has gaps in a bundle (the ring keeps the newest
 * steps) and may differ from the time order; it stays in `steps.json` for tie-breaking.
 */

/** A step's number in every reader: its 1-based position in `steps.json`. */
export const stepNumber = (index: number): number => index + 1;

/** `#17`: how readers write a step's number. */
export const stepLabel = (index: number): string => `#${stepNumber(index)}`;

/**
 * The frame on screen at `ts` (0-based): the last one captured at or before it, because a frame
 * shows the page until the next one is captured (frames come when the page repaints). When none was
 * captured by then, the first frame (the nearest one, taken after `ts`); -1 without frames.
 * @example screenAt([{ ts: 0, duration_ms: 500 }, { ts: 500, duration_ms: 500 }], 499) // 0
 */
export function screenAt(frames: readonly Pick<FrameInfo, 'ts'>[], ts: number): number {
  if (frames.length === 0) return -1;
  let lo = 0;
  let hi = frames.length - 1;
  let before = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (frames[mid]!.ts <= ts) {
      before = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return before < 0 ? 0 : before;
}

/**
 * The frame of a step (0-based): the screen at its time, the page as the step found it, where its
 * target's box and click point belong (a later frame may show what it led to). -1 without frames.
 */
export const frameOfStep = (frames: readonly Pick<FrameInfo, 'ts'>[], step: { ts: number }): number => screenAt(frames, step.ts);

/**
 * The screen at the failure (0-based): the frame on screen when it happened; the last frame when its
 * time is unknown; -1 without frames.
 */
export const failureFrame = (frames: readonly Pick<FrameInfo, 'ts'>[], failureTs: number): number =>
  Number.isFinite(failureTs) ? screenAt(frames, failureTs) : frames.length - 1;

/**
 * The step that failed (0-based): the last step at or before the failure with a `fail` outcome, else
 * the last step at or before it, else the last step; -1 without steps.
 */
export function failureStep(steps: readonly { ts: number; outcome: string | null }[], failureTs: number): number {
  let last = -1;
  let failed = -1;
  steps.forEach((step, i) => {
    if (Number.isFinite(failureTs) && step.ts > failureTs) return;
    last = i;
    if (step.outcome === 'fail') failed = i;
  });
  if (failed >= 0) return failed;
  return last >= 0 ? last : steps.length - 1;
}

/** A step page taken this much after its step or more is late: readers say by how much. */
export const LATE_PAGE_MS = 250;

/**
 * How late a step's page was taken (ms after the step), when it is at least `LATE_PAGE_MS` late;
 * null when it is on time or a time is unknown. The page is the page at the step all the same (the
 * recorder names a late page only when nothing on it changed in between).
 */
export function pageLateness(stepTs: number, pageAt: number | undefined): number | null {
  if (pageAt === undefined || !Number.isFinite(stepTs) || !Number.isFinite(pageAt)) return null;
  const late = pageAt - stepTs;
  return late >= LATE_PAGE_MS ? late : null;
}

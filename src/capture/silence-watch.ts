/**
 * A frame a screencasting tab should send: one that arrives after `since` (or a screenshot taken
 * after it) by `due`; else it gets a screenshot, `spacingMs` from its last one.
 */
export interface FrameExpectation {
  since: number;
  due: number;
  spacingMs: number;
}

/**
 * What a tab's screencast is expected to send: the check timed at `check.due`, and `then`, a later
 * one that a frame meeting `check` may not meet (it arrived before `then.since`: a frame of the page
 * before, when `then` is a new page's).
 */
export interface SilenceWatch {
  check: FrameExpectation;
  then?: FrameExpectation;
}

/**
 * How a tab's watch takes one more expectation. One due sooner and started later covers the pending
 * ones: whatever meets it (a frame after its start, or a screenshot at its time) lies inside theirs
 * too, so it takes their place, with the smallest spacing. Otherwise an action's (`ownStart` false) is
 * covered by the check pending, as it always was: a script acting fast pays one check per silence,
 * not one per action. A new page's or a new screencast's (`ownStart`) is not: a frame of the page
 * before may meet the pending check, so it stays as `then`, checked once that one was met.
 */
export function addExpectation(watch: SilenceWatch | undefined, next: FrameExpectation, ownStart: boolean): SilenceWatch {
  if (!watch) return { check: next };
  const spacingMs = Math.min(next.spacingMs, watch.check.spacingMs, watch.then?.spacingMs ?? Infinity);
  if (next.due < watch.check.due) return { check: { ...next, spacingMs } };
  if (!ownStart) return watch;
  // Two to check later: the later start with the sooner time covers both.
  const then = watch.then ? { since: next.since, due: Math.min(next.due, watch.then.due), spacingMs: Math.min(next.spacingMs, watch.then.spacingMs) } : next;
  return { check: watch.check, then };
}

/**
 * What a tab's due check comes to, given when it last sent a frame or had a screenshot taken
 * (`latest`): a screenshot, spaced (which, taken now or later, meets `then` as well), or `then` still
 * to be checked (the frame that met the check came before it started), or nothing.
 */
export function settleCheck(watch: SilenceWatch, latest: number): { screenshot: number } | { then: FrameExpectation } | null {
  // Not waiting for a spacing `then` would not wait for: the screenshot stands for both.
  if (latest < watch.check.since) return { screenshot: Math.min(watch.check.spacingMs, watch.then?.spacingMs ?? Infinity) };
  if (watch.then && latest < watch.then.since) return { then: watch.then };
  return null;
}

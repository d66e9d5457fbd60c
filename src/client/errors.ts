/** No service worker of the browser exposes the recorder's `afr` within the time allowed. */
export class RecorderNotFoundError extends Error {
  override name = 'RecorderNotFoundError';
}

/** `afr.<method>` rejected: the message is the recorder's own (an invalid setting, an unknown bundle id…). */
export class RecorderCallError extends Error {
  override name = 'RecorderCallError';
  constructor(
    readonly method: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`afr.${method}: ${message}`, options);
  }
}

/** `rec.waitForBundle`: no matching bundle was stored within `timeoutMs`. */
export class RecorderTimeoutError extends Error {
  override name = 'RecorderTimeoutError';
  constructor(
    readonly method: string,
    readonly timeoutMs: number,
    detail: string,
  ) {
    super(`${method}: ${detail} within ${timeoutMs} ms`);
  }
}

/**
 * The recorder's service worker went away during a call: one that is not safe to repeat (`fail`, `step`,
 * `assert`…, which the recorder may already have applied), or a repeat-safe one whose retry met the same
 * fate. The client looks for the worker again on the next call.
 */
export class RecorderWorkerLostError extends Error {
  override name = 'RecorderWorkerLostError';
  constructor(
    readonly method: string,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(`afr.${method}: the recorder's service worker went away during the call (Chrome stopped or restarted it); ${detail}`, options);
  }
}

// What Playwright and Puppeteer say when the worker (or the whole browser) is gone. Playwright:
// TargetClosedError "Target page, context or browser has been closed", "Worker was closed",
// "Execution context was destroyed"; Puppeteer: TargetCloseError "Protocol error (…): Target closed",
// "Session closed. Most likely the page has been closed.", CDP "No target with given id" /
// "Cannot find context with specified id".
const GONE_NAMES = new Set(['TargetClosedError', 'TargetCloseError']);
const GONE_MESSAGE =
  /Target page, context or browser has been closed|Target closed|Worker was closed|Execution context was destroyed|Session closed|Session already detached|No target with given id|Cannot find context with specified id/i;

/** Whether an evaluate failure means the worker (or the browser) is gone, rather than `afr` rejecting. */
export function isTargetGoneError(error: unknown): boolean {
  if (error instanceof Error) return GONE_NAMES.has(error.name) || GONE_MESSAGE.test(error.message);
  return GONE_MESSAGE.test(String(error));
}

/** The first line of an evaluate error, without the library's `worker.evaluate: Error: ` prefix. */
export function describeEvaluateError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const firstLine = message.split('\n', 1)[0] ?? '';
  return firstLine.replace(/^\w+\.evaluate: /, '').replace(/^Error: /, '');
}

/** `loadRecorder`: the browser refused to load the extension (CDP `Extensions.loadUnpacked`). */
export class RecorderLoadError extends Error {
  override name = 'RecorderLoadError';
}

/*
 * Views of a bundle that readers share: the moment of the failure and what happened just before it,
 * in milliseconds relative to it. They take the fields they need, so a strict reading (`BundleData`)
 * and a tolerant one (`tolerant-schemas.ts`) both fit.
 */

/** What `failureTime` needs: the manifest's end of the run, the failure signal's time when there is one. */
export interface FailureTimeSource {
  manifest: { ended_at: string } | null;
  diagnostics: { failure: { ts: number } } | null;
}

/**
 * Time of the failure, ms since the epoch: the signal's own time from `diagnostics.json`, else the end
 * of the run (`manifest.ended_at`, which is the failure's time in a failure bundle); NaN with neither.
 */
export function failureTime({ manifest, diagnostics }: FailureTimeSource): number {
  return diagnostics?.failure.ts ?? (manifest ? Date.parse(manifest.ended_at) : NaN);
}

/** Milliseconds from the failure to `at` (ms since the epoch, or an ISO time); negative before it, 0 when either is unknown. */
export function msFromFailure(failureTs: number, at: number | string): number {
  const ts = typeof at === 'string' ? Date.parse(at) : at;
  return Number.isFinite(failureTs) ? ts - failureTs : 0;
}

/** What `stepLine` reads of a step: a strict or a tolerant reading of `steps.json` both fit. */
export interface StepLineSource {
  ts: number;
  source: string;
  kind: string;
  action: string;
  target: { tag: string; name?: string | null; selector: string } | string | null;
  value: string | null;
  value_redacted: boolean;
  outcome: string | null;
  label: string | null;
}

/** One step as the command line shows it (`afr inspect`, `afr steps`), timed from the failure. */
export interface StepLine {
  /** Milliseconds relative to the failure (negative: before it). */
  at_ms: number;
  source: string;
  kind: string;
  action: string;
  /** The element: `tag "name" selector`, or the selector string the agent gave. */
  target: string | null;
  value: string | null;
  value_redacted: boolean;
  outcome: string | null;
  label: string | null;
}

/** A step's line: what happened, when (from the failure) and to what. */
export function stepLine(step: StepLineSource, failureTs: number): StepLine {
  const { target } = step;
  return {
    at_ms: msFromFailure(failureTs, step.ts),
    source: step.source,
    kind: step.kind,
    action: step.action,
    target: target === null || typeof target === 'string' ? target : `${target.tag}${target.name ? ` "${target.name}"` : ''} ${target.selector}`,
    value: step.value,
    value_redacted: step.value_redacted,
    outcome: step.outcome,
    label: step.label,
  };
}

/** The last `count` entries, in their order; all of them when `count` is 0. */
export function lastEntries<T>(entries: readonly T[], count: number): T[] {
  return count > 0 ? entries.slice(-count) : entries.slice();
}

/** A line of a stack trace that names a frame: V8's `    at f (url:1:2)`, Firefox's and Safari's `f@url:1:2`. */
const STACK_FRAME = /^\s*at\s|@.*:\d+(:\d+)?$/;

/**
 * The first `count` entries of a stack trace: its message, then one entry per frame, blank lines left
 * out. A line that does not name a frame belongs to the entry before it (the message a page wrote and
 * broke over lines, a frame whose URL an edited bundle broke), so no such line passes for a frame or
 * for a line of the reader's own.
 */
export function stackLines(stack: string | null, count: number): string[] {
  const entries: string[] = [];
  for (const line of (stack ?? '').split('\n')) {
    if (line.trim() === '') continue;
    if (entries.length === 0 || STACK_FRAME.test(line)) entries.push(line);
    else entries[entries.length - 1] += `\n${line}`;
  }
  return entries.slice(0, count);
}

/** A console error, timed from the failure. */
export interface ConsoleErrorView {
  at_ms: number;
  message: string;
}

/** A failed request, timed from the failure. */
export interface FailedRequestView {
  at_ms: number;
  method: string | null;
  url: string;
  status: number | null;
  error_text: string | null;
}

/** The last `count` console errors before the failure (absent from bundles older than configurable signals). */
export function recentConsoleErrors(diagnostics: { console_errors?: readonly { at: string; message: string }[] }, failureTs: number, count: number): ConsoleErrorView[] {
  return lastEntries(diagnostics.console_errors ?? [], count).map((c) => ({ at_ms: msFromFailure(failureTs, c.at), message: c.message }));
}

/** The last `count` failed requests before the failure (absent from bundles older than configurable signals). */
export function recentFailedRequests(
  diagnostics: { failed_requests?: readonly (Omit<FailedRequestView, 'at_ms'> & { at: string })[] },
  failureTs: number,
  count: number,
): FailedRequestView[] {
  return lastEntries(diagnostics.failed_requests ?? [], count).map((r) => ({
    at_ms: msFromFailure(failureTs, r.at),
    method: r.method,
    url: r.url,
    status: r.status,
    error_text: r.error_text,
  }));
}

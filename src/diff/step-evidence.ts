import { templateUrl } from '../bundle-format/fingerprint/template-url';
import { linkRequestsToSteps } from '../bundle-format/request-steps';
import type { TolerantHarEntry } from '../bundle-format/tolerant-har';
import { jsonShape, type JsonShape } from './json-shape';
import type { RunData } from './run-data';
import { runActions, type RunAction } from './step-key';

/*
 * What each action of a run led to, for comparing it with the same action of the other run: the time
 * until the next action, the page change the timeline put in words, the requests it caused (linked as
 * every reader links them, `request-steps.ts`), the console errors and exceptions seen until the next
 * action, and the recorder's signals then.
 */

/** One request as the diff compares it: method and URL template name it, status and JSON shape describe its answer. */
export interface RequestFact {
  /** 0-based index in `network.har`'s entries. */
  entry: number;
  method: string;
  url: string;
  /** `host/path` with ids templated and no port (`shop.test/orders/{n}`): the same request on another run. */
  template: string;
  /** 0 for a request that got no answer (`_error` says why). */
  status: number;
  error: string | null;
  /** The answer's JSON shape; null when it is not JSON or was not kept. */
  shape: JsonShape | null;
}

/** A console error or an uncaught exception. */
export interface ErrorFact {
  kind: 'console error' | 'exception';
  message: string;
}

export interface StepEvidence {
  action: RunAction;
  /** Milliseconds to the next action; null for the run's last. */
  durationMs: number | null;
  /** What the step changed on the page, in the timeline's words; null when the bundle has no timeline for it. */
  page: string | null;
  /** The step's page URL, templated (`runTemplate`). */
  url: string | null;
  requests: RequestFact[];
  errors: ErrorFact[];
  /** The recorder's signal steps after this action (`failure: http_5xx …`), as their action and label. */
  signals: string[];
}

const changesText = (changes: unknown): string | null =>
  changes !== null && typeof changes === 'object' && typeof (changes as { description?: unknown }).description === 'string' ? (changes as { description: string }).description : null;

/**
 * A URL as two runs share it: its template (`template-url.ts`) without the port, since a test server
 * or a dev server listens on another port on every run.
 */
export function runTemplate(url: string): string {
  return (templateUrl(url) ?? url).replace(/^([^/]+?):\d+(?=\/|$)/, '$1');
}

function requestFact(entry: TolerantHarEntry, index: number): RequestFact {
  const text = entry.response.content.text;
  return {
    entry: index,
    method: entry.request.method,
    url: entry.request.url,
    template: runTemplate(entry.request.url),
    status: entry.response.status,
    error: entry._error ?? null,
    shape: text !== undefined && entry.response.content._omitted === undefined ? jsonShape(text) : null,
  };
}

/** The index in `actions` of the last action at or before `ts` (the first action for what came before any). */
function actionAt(actions: readonly RunAction[], ts: number): number {
  let lo = 0;
  let hi = actions.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (actions[mid]!.step.ts <= ts) lo = mid + 1;
    else hi = mid;
  }
  return Math.max(0, lo - 1);
}

/** Each action of the run with what it led to, in order. */
export function stepEvidence(run: RunData): StepEvidence[] {
  const actions = runActions(run.steps);
  const evidence: StepEvidence[] = actions.map((action, i) => ({
    action,
    durationMs: i + 1 < actions.length ? Math.max(0, actions[i + 1]!.step.ts - action.step.ts) : null,
    page: changesText(action.step.changes),
    url: action.step.url ? runTemplate(action.step.url) : null,
    requests: [],
    errors: [],
    signals: [],
  }));
  if (evidence.length === 0) return evidence;
  const byStepIndex = new Map(evidence.map((e, i) => [e.action.index, i]));
  const entries = run.har?.log.entries ?? [];
  const links = linkRequestsToSteps(run.steps, entries.map((e) => Date.parse(e.startedDateTime)), null);
  links.stepOfRequest.forEach((step, r) => {
    // A request before the first action is the first action's page loading.
    evidence[step >= 0 ? (byStepIndex.get(step) ?? 0) : 0]!.requests.push(requestFact(entries[r]!, r));
  });
  for (const error of run.diagnostics?.console_errors ?? []) {
    const at = Date.parse(error.at);
    if (Number.isFinite(at)) evidence[actionAt(actions, at)]!.errors.push({ kind: 'console error', message: error.message });
  }
  const failure = run.diagnostics?.failure;
  if (failure && (failure.kind === 'exception' || failure.reason === 'page_exception') && failure.message) {
    evidence[actionAt(actions, failure.ts)]!.errors.push({ kind: 'exception', message: failure.message });
  }
  // A signal step lists under the action before it (`steps.json` is in time order).
  let last = 0;
  run.steps.forEach((step, index) => {
    const action = byStepIndex.get(index);
    if (action !== undefined) last = action;
    if (step.kind !== 'signal') return;
    const detail = step.detail ?? {};
    if (detail.signal_kind === 'page_exception' && typeof detail.message === 'string') evidence[actionAt(actions, step.ts)]!.errors.push({ kind: 'exception', message: detail.message });
    evidence[last]!.signals.push(step.label ? `${step.action} ${step.label}` : step.action);
  });
  return evidence;
}

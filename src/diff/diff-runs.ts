import { alignSteps } from './align-steps';
import { compareShapes, type ShapeChange } from './json-shape';
import { looseForm, unmaskedForm } from './mask-text';
import type { RunData, Side } from './run-data';
import { stepEvidence, type RequestFact, type StepEvidence } from './step-evidence';

/*
 * Two runs compared step by step: their actions lined up (`align-steps.ts`), then each pair's evidence
 * (`step-evidence.ts`) compared. The first step that differs is where the runs diverge.
 */

/** One way a step differs between the runs. `side` names the run that has what the other has not. */
export type StepDifference =
  | { what: 'only'; side: Side; retry: boolean }
  | { what: 'outcome'; a: string | null; b: string | null }
  | { what: 'page'; a: string | null; b: string | null }
  | { what: 'url'; a: string | null; b: string | null }
  | { what: 'status'; method: string; template: string; a: number; b: number; url: { a: string; b: string } }
  | { what: 'shape'; method: string; template: string; changes: ShapeChange[] }
  | { what: 'failed-request'; side: Side; method: string; template: string; url: string; status: number; error: string | null }
  | { what: 'error'; side: Side; kind: 'console error' | 'exception'; message: string }
  | { what: 'signal'; side: Side; text: string };

/** A step of one run or both: its number (#N in `steps.json`, as every reader numbers it) in each. */
export interface StepPlace {
  a: number | null;
  b: number | null;
  kind: string;
  action: string;
  target: StepEvidence['action']['step']['target'];
}

export interface StepDiff extends StepPlace {
  differences: StepDifference[];
  /** Set when one run took this step much longer: milliseconds in each. */
  slower?: SlowStep;
}

/** A step that took one run much longer (to the next action) than the other. */
export interface SlowStep {
  side: Side;
  ms: { a: number; b: number };
}

export interface BundleDiff {
  /** No step differs (slower steps and other input values alone do not make the runs differ). */
  same: boolean;
  /** Actions lined up in both runs, and those of one run only. */
  aligned: number;
  only: { a: number; b: number };
  /** The steps that differ, in order; the first is where the runs diverge. */
  steps: StepDiff[];
  /** Lined-up steps that took one run much longer, in order. */
  slower: (StepPlace & SlowStep)[];
  /**
   * Lined-up steps given other values (typed, chosen): what the runs were asked to do differently, a
   * likely cause of a divergence rather than one (two runs with other names typed still match).
   */
  inputs: (StepPlace & { value: { a: string | null; b: string | null } })[];
  /** What could not be compared (a run without `network.har`, a timeline, or too long to align). */
  notes: string[];
}

/** "Much slower": this many times as long, and at least `SLOW_MIN_MS` more. */
export const SLOW_RATIO = 3;
export const SLOW_MIN_MS = 1_000;

const other = (side: Side): Side => (side === 'a' ? 'b' : 'a');
const requestKey = (r: RequestFact) => `${r.method} ${r.template}`;
const failed = (r: RequestFact) => r.status === 0 || r.status >= 400 || r.error !== null;

/** Messages of a run's errors and signals, compared loosely (numbers and masks aside). */
function runTexts(evidence: readonly StepEvidence[]) {
  return {
    errors: new Set(evidence.flatMap((e) => e.errors.map((x) => `${x.kind}\u0000${looseForm(x.message)}`))),
    signals: new Set(evidence.flatMap((e) => e.signals.map(looseForm))),
  };
}

/** What `mine` (of run `side`) has that the other run has nowhere: new errors and signals, failed requests of its own. */
function ownEvidence(side: Side, mine: StepEvidence, theirs: ReturnType<typeof runTexts>, requests: readonly RequestFact[] | null): StepDifference[] {
  const out: StepDifference[] = [];
  for (const r of requests ?? []) if (failed(r)) out.push({ what: 'failed-request', side, method: r.method, template: r.template, url: r.url, status: r.status, error: r.error });
  const seen = new Set<string>();
  for (const e of mine.errors) {
    const key = `${e.kind}\u0000${looseForm(e.message)}`;
    if (!theirs.errors.has(key) && !seen.has(key)) out.push({ what: 'error', side, kind: e.kind, message: e.message });
    seen.add(key);
  }
  for (const s of mine.signals) if (!theirs.signals.has(looseForm(s))) out.push({ what: 'signal', side, text: s });
  return out;
}

/** The requests of two lined-up steps paired by method and URL template, in order; the rest of each side. */
function pairRequests(a: readonly RequestFact[], b: readonly RequestFact[]) {
  const pairs: [RequestFact, RequestFact][] = [];
  const rest = { a: [] as RequestFact[], b: [...b] };
  for (const request of a) {
    const match = rest.b.findIndex((r) => requestKey(r) === requestKey(request));
    if (match < 0) rest.a.push(request);
    else pairs.push([request, rest.b.splice(match, 1)[0]!]);
  }
  return { pairs, rest };
}

const shownValue = (step: StepEvidence['action']['step']) => (step.value_redacted ? '[masked]' : step.value);

/** What the two runs both have to compare: pages (a DOM timeline), requests (`network.har`). */
interface Comparable {
  pages: boolean;
  requests: boolean;
}

function compareLinedUp(a: StepEvidence, b: StepEvidence, texts: { a: ReturnType<typeof runTexts>; b: ReturnType<typeof runTexts> }, both: Comparable): StepDifference[] {
  const out: StepDifference[] = [];
  const sa = a.action.step;
  const sb = b.action.step;
  if (sa.outcome !== sb.outcome) out.push({ what: 'outcome', a: sa.outcome, b: sb.outcome });
  if (a.url !== null && b.url !== null && a.url !== b.url) out.push({ what: 'url', a: a.url, b: b.url });
  if (both.pages && looseForm(a.page ?? '') !== looseForm(b.page ?? '')) out.push({ what: 'page', a: a.page, b: b.page });
  const { pairs, rest } = both.requests ? pairRequests(a.requests, b.requests) : { pairs: [], rest: { a: null, b: null } };
  for (const [ra, rb] of pairs) {
    if (ra.status !== rb.status) out.push({ what: 'status', method: ra.method, template: ra.template, a: ra.status, b: rb.status, url: { a: ra.url, b: rb.url } });
    else if (ra.shape && rb.shape) {
      const changes = compareShapes(ra.shape, rb.shape);
      if (changes.length > 0) out.push({ what: 'shape', method: ra.method, template: ra.template, changes });
    }
  }
  out.push(...ownEvidence('a', a, texts.b, rest.a), ...ownEvidence('b', b, texts.a, rest.b));
  return out;
}

/** The values typed or chosen at two lined-up steps when they differ; masked values compare as masks (two withheld values are the same). */
function inputDifference(a: StepEvidence, b: StepEvidence): { a: string | null; b: string | null } | undefined {
  const va = shownValue(a.action.step);
  const vb = shownValue(b.action.step);
  return (va === null ? null : unmaskedForm(va)) === (vb === null ? null : unmaskedForm(vb)) ? undefined : { a: va, b: vb };
}

function slowness(a: StepEvidence, b: StepEvidence): SlowStep | undefined {
  if (a.durationMs === null || b.durationMs === null) return undefined;
  const [fast, slow] = a.durationMs <= b.durationMs ? [a.durationMs, b.durationMs] : [b.durationMs, a.durationMs];
  if (slow - fast < SLOW_MIN_MS || slow < fast * SLOW_RATIO) return undefined;
  return { side: a.durationMs > b.durationMs ? 'a' : 'b', ms: { a: a.durationMs, b: b.durationMs } };
}

const place = (a: StepEvidence | null, b: StepEvidence | null): StepPlace => {
  const step = (a ?? b)!.action.step;
  return { a: a ? a.action.index + 1 : null, b: b ? b.action.index + 1 : null, kind: step.kind, action: step.action, target: step.target };
};

/**
 * Compares run `b` with run `a` (usually: a failing run with the last passing one).
 * @example const diff = diffRuns(passing, failing); diff.same ? 0 : diff.steps[0] // the step where they diverge
 */
export function diffRuns(a: RunData, b: RunData): BundleDiff {
  const evidence = { a: stepEvidence(a), b: stepEvidence(b) };
  const texts = { a: runTexts(evidence.a), b: runTexts(evidence.b) };
  const hasPages = (run: StepEvidence[]) => run.some((e) => e.page !== null);
  const both: Comparable = { pages: hasPages(evidence.a) && hasPages(evidence.b), requests: a.har !== null && b.har !== null };
  const notes: string[] = [];
  for (const side of ['a', 'b'] as const) {
    if (!(side === 'a' ? a : b).har) notes.push(`${side} has no network.har: requests not compared`);
    if (!hasPages(evidence[side]) && evidence[side].length > 0) notes.push(`${side} has no page changes in words (no DOM timeline, or none recorded): pages not compared`);
  }
  const pairs = alignSteps(evidence.a.map((e) => e.action.key), evidence.b.map((e) => e.action.key));
  const diff: BundleDiff = { same: true, aligned: 0, only: { a: 0, b: 0 }, steps: [], slower: [], inputs: [], notes };
  for (const pair of pairs) {
    if (pair.kind === 'only') {
      diff.only[pair.side] += 1;
      const mine = evidence[pair.side][pair.index]!;
      const at = pair.side === 'a' ? place(mine, null) : place(null, mine);
      diff.steps.push({ ...at, differences: [{ what: 'only', side: pair.side, retry: pair.retry }, ...ownEvidence(pair.side, mine, texts[other(pair.side)], both.requests ? mine.requests : null)] });
      continue;
    }
    diff.aligned += 1;
    const ea = evidence.a[pair.a]!;
    const eb = evidence.b[pair.b]!;
    const differences = compareLinedUp(ea, eb, texts, both);
    const slower = slowness(ea, eb);
    if (slower) diff.slower.push({ ...place(ea, eb), ...slower });
    const value = inputDifference(ea, eb);
    if (value) diff.inputs.push({ ...place(ea, eb), value });
    if (differences.length > 0) diff.steps.push({ ...place(ea, eb), differences, ...(slower ? { slower } : {}) });
  }
  diff.same = diff.steps.length === 0;
  return diff;
}

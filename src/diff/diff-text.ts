import { quote, quoteOrDash, token } from '../shared/quote';
import type { BundleDiff, StepDifference, StepDiff, StepPlace } from './diff-runs';
import type { ShapeChange } from './json-shape';

/*
 * `afr diff` for a person: whether the runs match, where they diverge and why, then the other steps
 * that differ, one line each. Every string from a bundle is quoted (`shared/quote.ts`): page text,
 * URLs, names and messages are data, never the reader's own words or a line of their own.
 */

/** Later differing steps listed after the first (the rest counted). */
const MAX_LATER = 10;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** `a #6 / b #6: click button "Checkout" "#checkout"`. */
export function placeText(place: StepPlace): string {
  const where = [place.a !== null ? `a #${place.a}` : 'not in a', place.b !== null ? `b #${place.b}` : 'not in b'].join(' / ');
  const t = place.target;
  const target = t == null ? '' : typeof t === 'string' ? ` ${quote(t, 80)}` : ` ${token(t.role ?? t.tag)}${t.name !== undefined ? ` ${quote(t.name, 80)}` : ''} ${quote(t.selector, 80)}`;
  // An observed step's action often is its kind (`navigate`, `click`): said once.
  return `${where}: ${token(place.kind)}${place.action === place.kind ? '' : ` ${quote(place.action, 80)}`}${target}`;
}

function shapeText(c: ShapeChange): string {
  if (c.change === 'type') return `${quote(c.path, 80)} ${token(c.from)} → ${token(c.to)}`;
  return `${quote(c.path, 80)} ${c.change} (${token(c.type)})`;
}

/** One difference, in words. */
export function differenceText(d: StepDifference): string {
  switch (d.what) {
    case 'only':
      return d.retry ? `a retry: only ${d.side} repeated this action` : `only ${d.side} took this step`;
    case 'outcome':
      return `outcome: a ${quoteOrDash(d.a)}, b ${quoteOrDash(d.b)}`;
    case 'page':
      return `page: a ${d.a === null ? 'no change recorded' : quote(d.a, 200)}; b ${d.b === null ? 'no change recorded' : quote(d.b, 200)}`;
    case 'url':
      return `page URL: a ${quote(d.a ?? '', 120)}, b ${quote(d.b ?? '', 120)}`;
    case 'status':
      return `${token(d.method)} ${quote(d.template, 120)}: ${d.a} → ${d.b}`;
    case 'shape':
      return `${token(d.method)} ${quote(d.template, 120)}: answer shape changed: ${d.changes.slice(0, 8).map(shapeText).join('; ')}${d.changes.length > 8 ? `; and ${d.changes.length - 8} more` : ''}`;
    case 'failed-request':
      return `only in ${d.side}: ${token(d.method)} ${quote(d.url, 160)} ${d.status === 0 ? `failed${d.error ? ` ${quote(d.error, 80)}` : ''}` : `answered ${d.status}`}`;
    case 'error':
      return `new in ${d.side}: ${d.kind} ${quote(d.message, 200)}`;
    case 'signal':
      return `only in ${d.side}: signal ${quote(d.text, 200)}`;
  }
}

const slowText = (s: NonNullable<StepDiff['slower']>) => `much slower in ${s.side}: ${seconds(s.ms[s.side])} against ${seconds(s.ms[s.side === 'a' ? 'b' : 'a'])}`;

/** The whole comparison as lines; `names` are how the two bundles were given (file names, bundle ids). */
export function diffLines(diff: BundleDiff, names: { a: string; b: string }): string[] {
  const lines = [`a: ${quote(names.a, 200)}`, `b: ${quote(names.b, 200)}`];
  const counts = `${diff.aligned} step${diff.aligned === 1 ? ' lines' : 's line'} up, ${diff.only.a} only in a, ${diff.only.b} only in b`;
  const [first, ...later] = diff.steps;
  if (!first) lines.push(`the runs match: ${counts}`);
  else {
    lines.push(`the runs differ: ${counts}; ${diff.steps.length} step${diff.steps.length === 1 ? ' differs' : 's differ'}`);
    lines.push('', `first divergence, ${placeText(first)}`);
    for (const d of first.differences) lines.push(`  ${differenceText(d)}`);
    if (first.slower) lines.push(`  ${slowText(first.slower)}`);
  }
  const inputs = diff.inputs.filter((i) => !first || (i.a ?? 0) <= (first.a ?? Infinity) || (i.b ?? 0) <= (first.b ?? Infinity));
  if (inputs.length > 0) {
    lines.push('', first ? 'values given differently up to there:' : 'values given differently:');
    for (const i of inputs) lines.push(`  ${placeText(i)}: a ${quoteOrDash(i.value.a, 80)}, b ${quoteOrDash(i.value.b, 80)}`);
  }
  if (later.length > 0) {
    lines.push('', 'then:');
    for (const step of later.slice(0, MAX_LATER)) lines.push(`  ${placeText(step)}: ${differenceText(step.differences[0]!)}${step.differences.length > 1 ? ` (and ${step.differences.length - 1} more)` : ''}`);
    if (later.length > MAX_LATER) lines.push(`  … ${later.length - MAX_LATER} more steps differ (--json lists them all)`);
  }
  const slower = diff.slower.filter((s) => !first || s.a !== first.a || s.b !== first.b);
  if (slower.length > 0) {
    lines.push('', 'much slower steps:');
    for (const s of slower.slice(0, MAX_LATER)) lines.push(`  ${placeText(s)}: ${slowText(s)}`);
  }
  for (const note of diff.notes) lines.push(`note: ${note}`);
  return lines;
}

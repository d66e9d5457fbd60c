import type { Diagnostics } from '../../schemas/diagnostics';
import type { Manifest } from '../../schemas/manifest';
import type { Step } from '../../schemas/steps';
import { escapeControls } from '../shared/control-chars';
import { lastFailingRequest } from './failing-request';
import { failureFrame, stepLabel } from './story';
import { failureTime } from './views';

/*
 * summary.md is pasted into bug reports and into models, and most of what it quotes is page text. So
 * every string from the page (or the agent) sits inside a code span, where Markdown reads nothing: no
 * link, image, autolink or HTML from a page is ever live, and no page text can start a line of its own.
 * Only our own words, numbers, times and plain identifiers stay outside.
 */

/** Page text for one line of Markdown: whitespace runs (line breaks too) become one space, controls are escaped, capped. */
export function inline(text: string | null | undefined, max = 200): string {
  const flat = escapeControls((text ?? '').replace(/\s+/g, ' ').trim());
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * Page text as a Markdown code span. The fence is one backtick longer than the longest run of backticks
 * in the text, so the text cannot close it; a text that starts or ends with a backtick is padded with
 * one space on each side, which Markdown strips again (CommonMark 6.1).
 * @example code('![x](https://evil.test/b.png)') // '`![x](https://evil.test/b.png)`'
 */
export function code(text: string | null | undefined, max?: number): string {
  const body = inline(text, max) || '—';
  const longest = Math.max(0, ...Array.from(body.matchAll(/`+/g), (run) => run[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = body.startsWith('`') || body.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${body}${pad}${fence}`;
}

/**
 * An identifier (`http_5xx`, `nightly-42`) as it is, which reads better; anything else as a code span.
 * Letters, digits, `_` and `-` cannot form a link, an autolink (no `.`, `:` or `@`) or HTML, and an
 * underscore inside a word does not start emphasis.
 */
export function word(text: string | null | undefined, max = 80): string {
  return text && /^[A-Za-z0-9][A-Za-z0-9_-]{0,79}$/.test(text) ? text : code(text, max);
}

/** `11:59:58.000` of an ISO time or a timestamp; a string that is not a time is quoted instead. */
function clock(at: string | number): string {
  const ms = typeof at === 'number' ? at : Date.parse(at);
  return Number.isFinite(ms) ? new Date(ms).toISOString().slice(11, 23) : code(String(at), 40);
}

/** An ISO time as the recorder writes it; a string that is not a time is quoted instead. */
function isoTime(at: string): string {
  const ms = Date.parse(at);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : code(at, 40);
}

const KIND_WORDS: Record<string, string> = {
  exception: 'an uncaught exception',
  console_error: 'a console error',
  http_5xx: 'a server error response',
  http_4xx: 'a client error response',
  network_failure: 'a failed network request',
  app_error: 'an answer that says it failed',
  crash: 'a renderer crash',
  dialog: 'a JavaScript dialog',
  fail: 'the agent declaring a failure',
  assertion: 'a failed assertion',
};

/** A step's line, numbered as every reader numbers it (`#17`, its position in `steps.json`). */
function describeStep(s: Step, index: number): string {
  const target = typeof s.target === 'string' ? s.target : s.target ? (s.target.name ? `${s.target.selector} ("${s.target.name}")` : s.target.selector) : null;
  const value = s.value_redacted ? ' = (redacted)' : s.value !== null ? ` = ${code(s.value, 80)}` : '';
  const outcome = s.outcome ? ` → ${word(s.outcome)}` : '';
  const why = s.reasoning ? ` — reasoning: ${code(s.reasoning, 160)}` : '';
  return `- ${stepLabel(index)} ${clock(s.ts)} [${word(s.source)}] ${word(s.action, 120)}${target ? ` on ${code(target, 120)}` : ''}${value}${outcome}${why}`;
}

/**
 * The last request that failed or said it failed, in one line of Markdown: method and URL, what came
 * back (the status, the error, the excerpt of an answer that says it failed), its step and its entry
 * in `network.har`; null when the steps name none.
 * @example failingRequestLine(steps) // '`GET https://shop.test/api/orders` answered 200 that says it failed: `{"error":"token_expired"}` (step #4, network.har entry 2)'
 */
export function failingRequestLine(steps: readonly Step[]): string | null {
  const found = lastFailingRequest(steps);
  if (!found) return null;
  const d = found.step.detail!;
  const what =
    d.signal_kind === 'app_error'
      ? ` answered ${d.status ?? '2xx'} that says it failed: ${code(d.excerpt ?? d.message, 200)}`
      : d.status !== undefined
        ? ` answered ${d.status}`
        : ` failed${d.error_text ? ` with ${code(d.error_text, 120)}` : ''}`;
  const entry = d.har_entry !== undefined ? `, network.har entry ${d.har_entry}` : '';
  return `${code(`${d.method ?? ''} ${d.request_url}`.trim(), 300)}${what} (step ${stepLabel(found.index)}${entry})`;
}

/** ` on `button 'Pay'`` for a step's target, or nothing. */
function targetWords(s: Step): string {
  if (!s.target) return '';
  if (typeof s.target === 'string') return ` on ${code(s.target, 120)}`;
  return ` on ${code(`${s.target.tag}${s.target.name ? ` '${s.target.name}'` : ''}`, 120)}`;
}

/**
 * `summary.md`: a short plain-language account of the failure (what broke, where, what the agent did
 * last, what led to it), for a person reading a bug report or for pasting into a model.
 */
export function renderSummary(manifest: Omit<Manifest, 'artifacts'>, diagnostics: Diagnostics | null, steps: readonly Step[]): string {
  const failure = diagnostics?.failure;
  const lines: string[] = [];
  const title = manifest.status === 'success' ? `Run passed` : `Failure: ${word(manifest.failure_reason)}`;
  lines.push(`# ${title}${manifest.failure_label ? ` — ${code(manifest.failure_label, 120)}` : ''}`, '');
  if (manifest.status === 'failure') {
    const what = failure ? (Object.hasOwn(KIND_WORDS, failure.kind) ? KIND_WORDS[failure.kind] : word(failure.kind)) : word(manifest.failure_reason);
    lines.push(`**What broke:** ${what}: ${code(manifest.failure_message ?? manifest.failure_label, 300)}`);
    if (failure?.request) {
      const r = failure.request;
      lines.push(`**Request:** ${code(`${r.method ?? ''} ${r.url}`.trim(), 300)}${r.status ? ` answered ${r.status}` : ''}${r.error_text ? ` failed with ${code(r.error_text)}` : ''}${r.duration_ms != null ? ` after ${r.duration_ms} ms` : ''}${r.excerpt ? `, saying ${code(r.excerpt, 300)}` : ''}`);
    }
    const top = failure?.stack?.split('\n').find((l) => l.trim().startsWith('at '));
    if (top) lines.push(`**Thrown at:** ${code(top.trim(), 200)}`);
  }
  const failing = failingRequestLine(steps);
  if (failing) lines.push(`**Last failing request:** ${failing}`);
  lines.push(`**Where:** ${code(manifest.url_at_failure ?? 'unknown page', 300)}${manifest.tab_id !== null ? ` (tab ${manifest.tab_id})` : ''}, at ${isoTime(manifest.ended_at)}`);
  if (manifest.run.agent || manifest.run.task) {
    lines.push(`**Run:** ${word(manifest.run_id)}${manifest.run.agent ? `, agent ${code(`${manifest.run.agent}${manifest.run.agent_version ? ` ${manifest.run.agent_version}` : ''}`)}` : ''}${manifest.run.task ? `, task ${code(manifest.run.task, 200)}` : ''}`);
  }
  const failedTool = steps.map((step, index) => ({ step, index })).findLast(({ step }) => step.kind === 'tool_call' && (step.detail?.call_status === 'error' || step.detail?.call_status === 'timeout'));
  if (failedTool) {
    const { step, index } = failedTool;
    const d = step.detail!;
    lines.push(
      `**Last failing tool call:** ${stepLabel(index)} ${code(step.action.replace(/^tool /, ''), 120)} ${word(d.call_status!)}${d.duration_ms != null ? ` after ${d.duration_ms} ms` : ''}${d.error_text ? `: ${code(d.error_text, 200)}` : ''} (agent.json ${code(step.call?.id ?? '?', 40)})`,
    );
  }
  lines.push('');

  const numbered = steps.map((step, index) => ({ step, index }));
  const actions = numbered.filter(({ step }) => step.kind !== 'signal').slice(-10);
  lines.push('## What the agent did last', '', ...(actions.length ? actions.map(({ step, index }) => describeStep(step, index)) : ['- (no steps recorded in the window)']), '');

  const changed = numbered.filter(({ step }) => step.changes && step.changes.description !== 'nothing changed').slice(-3);
  if (changed.length) {
    lines.push('## What changed', '', ...changed.map(({ step, index }) => `- ${stepLabel(index)} after ${word(step.action, 120)}${targetWords(step)}: ${code(step.changes!.description, 400)}`), '');
  }

  const chain = diagnostics?.signal_chain ?? [];
  if (chain.length > 1) {
    lines.push('## Signals before the failure', '', ...chain.slice(-10).map((s) => `- ${clock(s.at)} ${word(s.kind)} (${word(s.disposition)}): ${code(s.message ?? s.reason, 160)}`), '');
  }
  const errors = diagnostics?.console_errors ?? [];
  if (errors.length) lines.push('## Console errors', '', ...errors.slice(-5).map((e) => `- ${clock(e.at)} ${code(e.message, 200)}`), '');
  const requests = diagnostics?.failed_requests ?? [];
  if (requests.length) {
    lines.push('## Failed requests', '', ...requests.slice(-5).map((r) => `- ${clock(r.at)} ${code(`${r.method ?? ''} ${r.url}`.trim(), 200)} → ${r.status ?? (r.error_text ? code(r.error_text, 120) : 'failed')}${r.excerpt ? ` that says it failed: ${code(r.excerpt, 120)}` : ''}${r.duration_ms != null ? ` (${r.duration_ms} ms)` : ''}`), '');
  }

  const spanSeconds = (Date.parse(manifest.ended_at) - Date.parse(manifest.started_at)) / 1000;
  const pm = diagnostics?.page_metrics;
  const captures = manifest.frames.reduce((n, f) => n + (f.captures ?? 1), 0);
  const repeats = captures > manifest.frames.length ? ` (${captures} captures, identical ones in a row stored once)` : '';
  const redacted = diagnostics ? Object.values(diagnostics.redaction.fields).reduce((a, b) => a + (b ?? 0), 0) : 0;
  const atFailure = failureFrame(manifest.frames, failureTime({ manifest, diagnostics }));
  const screen = manifest.frames[atFailure];
  lines.push(
    '## In this bundle',
    '',
    `- capture level ${word(manifest.capture_level)}; ${manifest.frame_count} frames${repeats} over ${spanSeconds.toFixed(1)} s${manifest.clip ? `; failure.mp4 (${manifest.clip.duration_seconds.toFixed(1)} s)` : ''}`,
    ...(screen ? [`- the screen at the failure: frame ${atFailure + 1}, ${code(screen.name, 80)}`] : []),
    `- ${manifest.step_count} steps${pm ? `; DOM snapshot of ${pm.dom_nodes} nodes` : ''}${redacted ? `; ${redacted} sensitive fields withheld` : ''}`,
    ...(diagnostics?.warnings.length ? diagnostics.warnings.map((w) => `- warning: ${code(w, 200)}`) : []),
    // The zip's name as the client's saveBundle and the viewer's download give it (`<bundle id>.zip`).
    ...(manifest.status === 'failure' ? [`- reproduce it: ${code(`afr repro ${manifest.bundle_id}.zip --run`, 200)} (a script instead: \`--out repro.spec.ts\`, offline: \`--offline\`)`] : []),
    '',
  );
  return lines.join('\n');
}

import type { Diagnostics } from '../../schemas/diagnostics';
import type { Manifest } from '../../schemas/manifest';
import type { Step } from '../../schemas/steps';

/** Page text in Markdown: one line, capped, no backticks (so it can sit inside a code span). */
export function inline(text: string | null | undefined, max = 200): string {
  const flat = (text ?? '').replace(/\s+/g, ' ').trim().replace(/`/g, "'");
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

const time = (ts: number) => new Date(ts).toISOString().slice(11, 23);
const code = (text: string | null | undefined, max?: number) => `\`${inline(text, max) || '—'}\``;

const KIND_WORDS: Record<string, string> = {
  exception: 'an uncaught exception',
  console_error: 'a console error',
  http_5xx: 'a server error response',
  http_4xx: 'a client error response',
  network_failure: 'a failed network request',
  crash: 'a renderer crash',
  dialog: 'a JavaScript dialog',
  fail: 'the agent declaring a failure',
  assertion: 'a failed assertion',
};

function describeStep(s: Step): string {
  const target = typeof s.target === 'string' ? s.target : s.target ? (s.target.name ? `${s.target.selector} ("${s.target.name}")` : s.target.selector) : null;
  const value = s.value_redacted ? ' = (redacted)' : s.value !== null ? ` = ${code(s.value, 80)}` : '';
  const outcome = s.outcome ? ` → ${s.outcome}` : '';
  const why = s.reasoning ? ` — reasoning: ${inline(s.reasoning, 160)}` : '';
  return `- ${time(s.ts)} [${s.source}] ${inline(s.action, 120)}${target ? ` on ${code(target, 120)}` : ''}${value}${outcome}${why}`;
}

/**
 * `summary.md`: a short plain-language account of the failure (what broke, where, what the agent did
 * last, what led to it), for a person reading a bug report or for pasting into a model.
 */
export function renderSummary(manifest: Omit<Manifest, 'artifacts'>, diagnostics: Diagnostics | null, steps: readonly Step[]): string {
  const failure = diagnostics?.failure;
  const lines: string[] = [];
  const title = manifest.status === 'success' ? `Run passed` : `Failure: ${inline(manifest.failure_reason, 80)}`;
  lines.push(`# ${title}${manifest.failure_label ? ` — ${inline(manifest.failure_label, 120)}` : ''}`, '');
  if (manifest.status === 'failure') {
    const what = failure ? KIND_WORDS[failure.kind] ?? failure.kind : manifest.failure_reason;
    lines.push(`**What broke:** ${what}: ${code(manifest.failure_message ?? manifest.failure_label, 300)}`);
    if (failure?.request) {
      const r = failure.request;
      lines.push(`**Request:** ${code(`${r.method ?? ''} ${r.url}`.trim(), 300)}${r.status ? ` answered ${r.status}` : ''}${r.error_text ? ` failed with ${code(r.error_text)}` : ''}${r.duration_ms != null ? ` after ${r.duration_ms} ms` : ''}`);
    }
    const top = failure?.stack?.split('\n').find((l) => l.trim().startsWith('at '));
    if (top) lines.push(`**Thrown at:** ${code(top.trim(), 200)}`);
  }
  lines.push(`**Where:** ${code(manifest.url_at_failure ?? 'unknown page', 300)}${manifest.tab_id !== null ? ` (tab ${manifest.tab_id})` : ''}, at ${manifest.ended_at}`);
  if (manifest.run.agent || manifest.run.task) {
    lines.push(`**Run:** ${manifest.run_id}${manifest.run.agent ? `, agent ${code(`${manifest.run.agent}${manifest.run.agent_version ? ` ${manifest.run.agent_version}` : ''}`)}` : ''}${manifest.run.task ? `, task ${code(manifest.run.task, 200)}` : ''}`);
  }
  lines.push('');

  const actions = steps.filter((s) => s.kind !== 'signal').slice(-10);
  lines.push('## What the agent did last', '', ...(actions.length ? actions.map(describeStep) : ['- (no steps recorded in the window)']), '');

  const chain = diagnostics?.signal_chain ?? [];
  if (chain.length > 1) {
    lines.push('## Signals before the failure', '', ...chain.slice(-10).map((s) => `- ${s.at.slice(11, 23)} ${s.kind} (${s.disposition}): ${code(s.message ?? s.reason, 160)}`), '');
  }
  const errors = diagnostics?.console_errors ?? [];
  if (errors.length) lines.push('## Console errors', '', ...errors.slice(-5).map((e) => `- ${e.at.slice(11, 23)} ${code(e.message, 200)}`), '');
  const requests = diagnostics?.failed_requests ?? [];
  if (requests.length) {
    lines.push('## Failed requests', '', ...requests.slice(-5).map((r) => `- ${r.at.slice(11, 23)} ${code(`${r.method ?? ''} ${r.url}`.trim(), 200)} → ${r.status ?? r.error_text ?? 'failed'}${r.duration_ms != null ? ` (${r.duration_ms} ms)` : ''}`), '');
  }

  const spanSeconds = (Date.parse(manifest.ended_at) - Date.parse(manifest.started_at)) / 1000;
  const pm = diagnostics?.page_metrics;
  const redacted = diagnostics ? Object.values(diagnostics.redaction.fields).reduce((a, b) => a + (b ?? 0), 0) : 0;
  lines.push(
    '## In this bundle',
    '',
    `- capture level ${manifest.capture_level}; ${manifest.frame_count} frames over ${spanSeconds.toFixed(1)} s${manifest.clip ? `; failure.mp4 (${manifest.clip.duration_seconds.toFixed(1)} s)` : ''}`,
    `- ${manifest.step_count} steps${pm ? `; DOM snapshot of ${pm.dom_nodes} nodes` : ''}${redacted ? `; ${redacted} sensitive fields withheld` : ''}`,
    ...(diagnostics?.warnings.length ? diagnostics.warnings.map((w) => `- warning: ${inline(w, 200)}`) : []),
    '',
  );
  return lines.join('\n');
}

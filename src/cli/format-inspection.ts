import { SILENT_DEBUGGER_SWITCH } from '../../schemas/viewport-cut';
import { formatBytes } from './format-bytes';
import type { BundleInspection, StepLine } from './inspect-bundle';
import { escapeControls } from './safe-text';

/** Shown instead of a value the recorder withheld. */
export const REDACTED = '(redacted)';

const truncate = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
// Page text: whitespace runs (line breaks too) become one space, and controls are escaped before the
// text is measured, so the columns line up with what the terminal shows.
const oneLine = (text: string): string => escapeControls(text.replace(/\s+/g, ' ').trim());
const seconds = (s: number, digits = 1): string => `${s.toFixed(digits)} s`;
const row = (name: string, value: string): string => `  ${name.padEnd(10)}${value}`;

/** `-5.61` seconds relative to the failure, right-aligned for a column. */
function relativeTime(ms: number): string {
  return `${ms > 0 ? '+' : ''}${(ms / 1000).toFixed(2)}`.padStart(8);
}

const ACTION_WIDTH = 32;
const TARGET_WIDTH = 48;

/**
 * One line per step: time, source, kind, action, target, value or `(redacted)`, outcome, label. Action
 * and target are padded to the widest of the listed steps (up to a cap) so the columns line up.
 */
export function formatSteps(steps: readonly StepLine[]): string[] {
  const actions = steps.map((s) => truncate(oneLine(s.action), ACTION_WIDTH));
  const targets = steps.map((s) => (s.target ? truncate(oneLine(s.target), TARGET_WIDTH) : ''));
  const actionWidth = Math.max(0, ...actions.map((a) => a.length));
  const targetWidth = Math.max(0, ...targets.map((t) => t.length));
  return steps.map((step, n) => {
    const parts = [relativeTime(step.at_ms), oneLine(step.source).padEnd(8), oneLine(step.kind).padEnd(8), (actions[n] ?? '').padEnd(actionWidth)];
    if (targetWidth > 0) parts.push((targets[n] ?? '').padEnd(targetWidth));
    if (step.value_redacted) parts.push(REDACTED);
    else if (step.value !== null) parts.push(truncate(escapeControls(JSON.stringify(step.value)), 40));
    if (step.outcome) parts.push(`→ ${oneLine(step.outcome)}`);
    if (step.label) parts.push(`[${truncate(oneLine(step.label), 60)}]`);
    return parts.join('  ').trimEnd();
  });
}

function formatHeader(i: BundleInspection): string[] {
  const f = i.failure;
  const lines = [i.bundle_id === null ? '(unknown bundle)' : oneLine(i.bundle_id)];
  if (i.status && i.status !== 'failure') lines.push(row('status', oneLine(i.status)));
  if (f) {
    const how = [f.kind === f.reason ? null : f.kind, f.origin, f.http_status === null ? null : `HTTP ${f.http_status}`].filter(Boolean).join(', ');
    lines.push(row('reason', oneLine(`${f.reason}${how ? ` (${how})` : ''}`)));
    lines.push(row('label', f.label === null ? '—' : oneLine(f.label)));
    lines.push(row('message', f.message ? truncate(oneLine(f.message), 200) : '—'));
    lines.push(row('url', f.url === null ? '—' : oneLine(f.url)));
    const before = i.recording_started_at ? (Date.parse(f.time) - Date.parse(i.recording_started_at)) / 1000 : NaN;
    lines.push(row('time', `${oneLine(f.time)}${Number.isFinite(before) ? ` (recording starts ${seconds(before)} before)` : ''}`));
    lines.push(row('tab', f.tab_id === null ? '—' : String(f.tab_id)));
  }
  if (i.run_id) lines.push(row('run', oneLine(i.run_id)));
  if (i.snapshot) {
    const s = i.snapshot;
    lines.push(row('snapshot', `${escapeControls(JSON.stringify(s.title))}, ${s.node_count} nodes${s.truncated ? ' (truncated)' : ''}, ${oneLine(s.url)}`));
  }
  return lines;
}

function formatErrors(e: NonNullable<BundleInspection['errors']>): string[] {
  const lines: string[] = [];
  e.stack.forEach((l, n) => lines.push(row(n === 0 ? 'stack' : '', truncate(oneLine(l), 160))));
  for (const c of e.console_errors) lines.push(row('console', `${relativeTime(c.at_ms).trim()} s  ${truncate(oneLine(c.message), 200)}`));
  for (const r of e.failed_requests) {
    const outcome = r.status === null ? oneLine(r.error_text ?? 'failed') : `HTTP ${r.status}`;
    const request = [r.method === null ? null : oneLine(r.method), truncate(oneLine(r.url), 160)].filter(Boolean).join(' ');
    lines.push(row('request', `${relativeTime(r.at_ms).trim()} s  ${request} → ${outcome}`));
  }
  // Frames that show less than the viewport: the whole warning, its fix (a launch switch) is at its end.
  for (const w of e.warnings) lines.push(w.includes(SILENT_DEBUGGER_SWITCH) ? row('cut', oneLine(w)) : row('warning', truncate(oneLine(w), 200)));
  if (e.clip_error) lines.push(row('clip', truncate(oneLine(e.clip_error), 200)));
  // The packager usually repeats the snapshot error among the warnings: once is enough.
  if (e.snapshot_error && !e.warnings.some((w) => w.includes(e.snapshot_error ?? ''))) lines.push(row('snapshot', truncate(oneLine(e.snapshot_error), 200)));
  if (e.dropped_frames && e.dropped_frames.total > 0) {
    // Frames captured but not stored (their sensitive regions could not be placed): the reason, not a guess.
    const reasons = Object.entries(e.dropped_frames.by_reason).filter(([, n]) => n > 0);
    const named = reasons.length ? ` (${reasons.map(([reason, n]) => `${oneLine(reason)} ${n}`).join(', ')})` : '';
    lines.push(row('dropped', `${e.dropped_frames.total} frames dropped since the recorder started, rather than stored unmasked${named}`));
  }
  if (e.capture_errors > 0 || e.quota_errors > 0) {
    const last = e.last_capture_error ? `; last: ${truncate(oneLine(e.last_capture_error), 160)}` : '';
    lines.push(row('capture', `${e.capture_errors} capture errors, ${e.quota_errors} over quota${last}`));
  }
  if (e.debugger_error) lines.push(row('debugger', truncate(oneLine(e.debugger_error), 200)));
  if (e.suppressed_signals > 0) lines.push(row('cooldown', `${e.suppressed_signals} earlier failure signals of this tab were not bundled`));
  return lines.length > 0 ? lines : ['  none'];
}

function formatClip(c: NonNullable<BundleInspection['clip']>): string {
  const parts = [
    `failure.mp4 ${c.mp4_seconds === null ? 'without a readable duration' : seconds(c.mp4_seconds, 2)}`,
    c.manifest_seconds === null ? 'not in the manifest' : `manifest ${seconds(c.manifest_seconds, 2)}`,
  ];
  if (c.encoder) parts.push(oneLine(c.encoder));
  parts.push(formatBytes(c.bytes));
  return parts.join(', ');
}

/** The lines `afr inspect` prints; bundle text in them is escaped field by field (`safe-text.ts`). */
export function inspectionLines(i: BundleInspection): string[] {
  const lines = formatHeader(i);
  if (i.steps) {
    const { total, last } = i.steps;
    lines.push('', last.length === total ? `Steps: ${total} (seconds relative to the failure)` : `Last ${last.length} of ${total} steps (seconds relative to the failure)`);
    lines.push(...(last.length > 0 ? formatSteps(last) : ['  none']));
  }
  if (i.errors) lines.push('', 'Errors', ...formatErrors(i.errors));
  lines.push('');
  if (i.frames) {
    const f = i.frames;
    const when = f.count > 0 ? ` over ${seconds(f.span_seconds)} from ${escapeControls(String(f.first_at))}, ${formatBytes(f.bytes)}, ${f.sizes.join(' ')}` : '';
    const repeats = f.captures > f.count ? ` (${f.captures} captures, identical ones in a row stored once)` : '';
    lines.push(row('frames', `${f.count}${repeats}${when}`));
  }
  if (i.step_pages) lines.push(row('pages', `${i.step_pages.count} pages at the steps (snapshots/), ${formatBytes(i.step_pages.bytes)}`));
  if (i.outline) lines.push(row('outline', `outline.md, ${formatBytes(i.outline.bytes)}`));
  lines.push(row('clip', i.clip ? formatClip(i.clip) : 'none'));
  lines.push(row('bundle', `${formatBytes(i.bundle.bytes)}, ${i.bundle.files} files`));
  if (i.unreadable.length > 0) {
    lines.push('', 'Unreadable (run `afr validate` for details)');
    for (const u of i.unreadable) lines.push(`  ${oneLine(u.file)}: ${truncate(oneLine(u.error), 200)}`);
  }
  return lines;
}

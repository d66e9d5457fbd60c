import type { Diagnostics } from '../../schemas/diagnostics';
import type { BundleData } from '../bundle-format/bundle-data';
import { h, type Child } from './dom';
import { formatBytes, formatClock, formatDateTime } from './format';

type Row = [label: string, value: Child];

const table = (title: string, rows: Row[], testid: string): HTMLElement =>
  h(
    'div',
    { className: 'afr-diag-group', data: { testid } },
    h('h3', null, title),
    h('dl', null, ...rows.flatMap(([label, value]) => [h('dt', null, label), h('dd', null, value === null || value === '' ? '\u2014' : value)])),
  );

/** Counts by kind as chips (`password 3`), kinds with none left out. */
const counts = (record: Partial<Record<string, number>>): HTMLElement => {
  const kinds = Object.entries(record).filter((e): e is [string, number] => typeof e[1] === 'number' && e[1] > 0);
  if (kinds.length === 0) return h('span', { className: 'afr-empty' }, 'none');
  return h('span', { className: 'afr-chips' }, ...kinds.map(([kind, n]) => h('span', { className: 'afr-badge' }, `${kind} ${n}`)));
};

const iso = (value: string | null) => (value === null ? null : formatDateTime(Date.parse(value)));
const ms = (value: number) => String(Math.round(value));

/** Files of the zip, frames summed up in one row. */
function fileRows(artifacts: BundleData['manifest']['artifacts']): Row[] {
  const frames = artifacts.filter((a) => a.name.startsWith('frames/'));
  const rows = artifacts.filter((a) => !a.name.startsWith('frames/')).map((a): Row => [a.name, formatBytes(a.size_bytes)]);
  if (frames.length > 0) rows.push(['frames/', `${frames.length} JPEG, ${formatBytes(frames.reduce((s, a) => s + a.size_bytes, 0))}`]);
  return rows;
}

/** Timestamped entries (ISO time, text), or nothing when there are none. */
function listGroup(title: string, entries: [at: string, text: string][], testid: string): HTMLElement | null {
  if (entries.length === 0) return null;
  return h(
    'div',
    { className: 'afr-diag-group', data: { testid } },
    h('h3', null, `${title} (${entries.length})`),
    h('ul', { className: 'afr-diag-list' }, ...entries.map(([at, text]) => h('li', null, h('span', { className: 'afr-step-time' }, formatClock(Date.parse(at))), text))),
  );
}

/** The groups only `diagnostics.json` has: failure signal, signals, capture statistics, redaction, timings. */
function diagnosticsGroups(d: Diagnostics, { manifest }: BundleData): (HTMLElement | null)[] {
  const f = d.failure;
  const c = d.capture;
  const t = d.timings_ms;
  const request = f.request ? [f.request.method, f.request.status === null ? null : String(f.request.status), f.request.url, f.request.error_text].filter(Boolean).join(' ') : null;
  return [
    table(
      'Failure',
      [
        ['reason', f.reason],
        ['kind', f.kind],
        ['label', f.label],
        ['origin', f.origin],
        ['message', f.message],
        ['url', f.url],
        ['http status', f.http_status === null ? null : String(f.http_status)],
        ['request', request],
        ['time', formatDateTime(f.ts)],
        ['suppressed before', String(d.suppressed_signals)],
        ['stack', f.stack === null ? null : h('pre', { className: 'afr-stack' }, f.stack)],
      ],
      'diag-failure',
    ),
    table(
      'Capture',
      [
        ['frames in bundle', String(c.frames_in_bundle)],
        ['capture rate', `${c.fps.toFixed(1)} frames/s`],
        ['frames in ring', `${c.frames_in_ring} (${formatBytes(c.ring_bytes)})`],
        ['window', `${iso(c.window_start) ?? '?'} \u2192 ${iso(c.window_end)}`],
        ['captures ok', String(c.captures_ok)],
        ['capture errors', String(c.capture_errors)],
        ['quota errors', String(c.quota_errors)],
        ['evicted frames', String(c.evicted_frames)],
        ['last capture error', c.last_capture_error],
        ['interval / quality', `${manifest.capture.interval_ms} ms / JPEG ${manifest.capture.jpeg_quality}`],
        ['buffer', `${manifest.buffer_seconds} s`],
      ],
      'diag-capture',
    ),
    listGroup(
      'Signal chain',
      d.signal_chain.map((s) => [s.at, `${s.kind} \u00B7 ${s.disposition} \u00B7 ${s.reason}${s.message ? `: ${s.message}` : ''}`]),
      'diag-signals',
    ),
    listGroup('Console errors', d.console_errors.map((e) => [e.at, e.url ? `${e.message} (${e.url})` : e.message]), 'diag-console'),
    listGroup(
      'Failed requests',
      d.failed_requests.map((r) => [r.at, [r.method, r.status === null ? null : String(r.status), r.url, r.error_text, r.duration_ms === null ? null : `${Math.round(r.duration_ms)} ms`].filter(Boolean).join(' ')]),
      'diag-requests',
    ),
    listGroup(
      'Other tabs',
      (d.other_tabs ?? []).map((o) => [
        o.last_activity_at,
        [
          `tab ${o.tab_id}`,
          o.url,
          `${o.steps} steps, ${o.signals} signals, ${o.frames} frames`,
          o.last_steps.length ? `last: ${o.last_steps.map((s) => s.label ?? s.action).join(' \u2192 ')}` : null,
        ]
          .filter(Boolean)
          .join(' \u00B7 '),
      ]),
      'diag-other-tabs',
    ),
    d.page_metrics === null
      ? null
      : table(
          'Page',
          [
            ['DOM nodes', `${d.page_metrics.dom_nodes}${d.page_metrics.snapshot_truncated ? ' (snapshot truncated)' : ''}`],
            ['deepest nesting', String(d.page_metrics.max_depth)],
            ['frames / shadow roots', `${d.page_metrics.frames} / ${d.page_metrics.shadow_roots}`],
            ['viewport', `${d.page_metrics.viewport.width}\u00D7${d.page_metrics.viewport.height}, scrolled ${d.page_metrics.viewport.scroll_x},${d.page_metrics.viewport.scroll_y}`],
          ],
          'diag-page',
        ),
    table(
      'Redaction',
      [
        ['fields withheld', counts(d.redaction.fields)],
        ['text masked', counts(d.redaction.text)],
      ],
      'diag-redaction',
    ),
    table(
      'Packaging (ms from start)',
      [
        ['snapshot', ms(t.snapshot)],
        ['frames', ms(t.frames)],
        ['clip', ms(t.clip)],
        ['before zip', ms(t.before_zip)],
      ],
      'diag-timings',
    ),
    table(
      'Clip and debugger',
      [
        ['clip', manifest.clip ? `${manifest.clip.name}, ${manifest.clip.duration_seconds.toFixed(2)} s, ${manifest.clip.encoder}` : null],
        ['clip error', d.clip_error],
        ['debugger', d.debugger.attached ? 'attached' : 'not attached'],
        ['debugger error', d.debugger.error],
      ],
      'diag-clip',
    ),
  ];
}

/** `diagnostics.json` and the manifest's facts: failure, capture, redaction, timings, clip, warnings, files. */
export function renderDiagnostics(data: BundleData): HTMLElement {
  const { manifest, diagnostics: d } = data;
  const run = manifest.run;
  return h(
    'section',
    { className: 'afr-panel afr-diagnostics', data: { testid: 'diagnostics' } },
    h('h2', null, 'Diagnostics'),
    d === null || d.warnings.length === 0 ? null : h('div', { className: 'afr-diag-group' }, h('h3', null, 'Warnings'), h('ul', { className: 'afr-warnings' }, ...d.warnings.map((w) => h('li', null, w)))),
    ...(d === null ? [h('p', { className: 'afr-empty' }, `This bundle has no diagnostics.json (capture level ${manifest.capture_level}).`)] : diagnosticsGroups(d, data)),
    table('Files', fileRows(manifest.artifacts), 'diag-files'),
    table(
      'Recording',
      [
        ['bundle', manifest.bundle_id],
        ['status', manifest.status],
        // The zip's name as the viewer's download and the client's saveBundle give it (`<bundle id>.zip`).
        ['reproduce', manifest.status === 'failure' ? `afr repro ${manifest.bundle_id}.zip --run` : null],
        ['capture level', manifest.capture_level],
        ['window', `${iso(manifest.started_at)} \u2192 ${iso(manifest.ended_at)}`],
        ['run', manifest.run_id],
        ['agent', [run.agent, run.agent_version].filter(Boolean).join(' ') || null],
        ['task', run.task],
        ['run outcome', run.outcome],
        ['extension', `${manifest.extension.name} ${manifest.extension.version}`],
      ],
      'diag-recording',
    ),
  );
}

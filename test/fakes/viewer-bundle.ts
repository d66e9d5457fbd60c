import { MANIFEST_VERSION, manifestSettings, type Manifest } from '../../schemas/manifest';
import { DEFAULT_SETTINGS } from '../../schemas/settings';
import type { Step } from '../../schemas/steps';
import { writeBundle, type BundleContents } from '../../src/bundle/write-bundle';
import type { BundleData } from '../../src/bundle-format/bundle-data';

// A small bundle for the readers' unit tests: four frames, steps of every source (one carrying
// markup as text), a redacted field in the steps and in the snapshot. Readers get a real zip from
// `makeBundleZip`, so their tests need not import the writer.

export const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);
export const HOSTILE = '<img src=x onerror=alert(1)>';

const step = (seq: number, ts: number, fields: Partial<Step>): Step => ({
  ts,
  seq,
  tab_id: 7,
  frame_id: 0,
  url: 'https://shop.test/checkout',
  source: 'observer',
  kind: 'click',
  action: 'click',
  target: null,
  value: null,
  value_redacted: false,
  outcome: null,
  label: null,
  ...fields,
});

export function makeBundleData(): BundleData {
  const frameTimes = [T0 - 3000, T0 - 2000, T0 - 1000, T0 - 400];
  const frames = frameTimes.map((ts, i) => ({
    name: `frames/frame_${String(i + 1).padStart(4, '0')}.jpeg`,
    captured_at: new Date(ts).toISOString(),
    ts,
    duration_ms: (frameTimes[i + 1] ?? T0 + 100) - ts,
    width: 1280,
    height: 720,
    source: 'visibleTab' as const,
  }));
  const steps: Step[] = [
    step(1, T0 - 3100, { kind: 'navigate', action: 'navigate', url: 'https://shop.test/checkout' }),
    step(2, T0 - 2050, { kind: 'input', action: 'type', target: { tag: 'input', role: 'textbox', name: 'Password', selector: '#pw' }, value_redacted: true }),
    step(3, T0 - 1950, { kind: 'input', action: 'type', target: { tag: 'input', role: 'textbox', name: 'Name', selector: '#name' }, value: 'Jane' }),
    step(4, T0 - 1100, { source: 'agent', kind: 'agent', action: HOSTILE, target: '</script><script>alert(2)</script>', outcome: 'ok', label: 'checkout', goal: 'place the order' }),
    step(5, T0 - 900, { kind: 'click', action: 'click', target: { tag: 'button', role: 'button', name: 'Place order', selector: '#place-order' } }),
    step(6, T0, { source: 'recorder', kind: 'signal', action: 'failure: assertion_failed', outcome: 'fail', label: 'order confirmation never appeared', tab_id: 7 }),
  ];
  return {
    manifest: {
      version: MANIFEST_VERSION,
      bundle_id: 'afr-20261122T120000Z-abcdef',
      run_id: 'run-1',
      status: 'failure',
      started_at: new Date(T0 - 3100).toISOString(),
      ended_at: new Date(T0).toISOString(),
      failure_reason: 'assertion_failed',
      failure_label: 'order confirmation never appeared',
      failure_message: 'expected <h1>Thanks</h1>',
      url_at_failure: 'https://shop.test/checkout',
      tab_id: 7,
      frame_count: frames.length,
      frames,
      step_count: steps.length,
      buffer_seconds: 15,
      capture_level: 'full',
      run: { agent: 'demo-agent', agent_version: '1.0', task: 'buy shoes', started_at: null, outcome: null },
      clip: { name: 'failure.mp4', duration_seconds: 3.1, encoder: 'test' },
      capture: { source: 'visibleTab', fps: 8, interval_ms: 550, masked_regions: 0, dropped_frames: 0, jpeg_quality: 70, max_buffer_bytes: 1 << 26 },
      settings: manifestSettings(DEFAULT_SETTINGS),
      artifacts: [
        { name: 'snapshot.json', size_bytes: 900 },
        ...frames.map((f) => ({ name: f.name, size_bytes: 20_000 })),
        { name: 'failure.mp4', size_bytes: 50_000 },
      ],
      extension: { name: 'Agent Flight Recorder', version: '0.1.0' },
    },
    steps: { version: 1, bundle_id: 'afr-20261122T120000Z-abcdef', steps },
    diagnostics: {
      version: 1,
      bundle_id: 'afr-20261122T120000Z-abcdef',
      failure: {
        kind: 'assertion',
        reason: 'assertion_failed',
        label: 'order confirmation never appeared',
        origin: 'agent',
        tab_id: 7,
        url: 'https://shop.test/checkout',
        ts: T0,
        message: 'expected <h1>Thanks</h1>',
        stack: null,
        http_status: null,
        request: null,
      },
      suppressed_signals: 0,
      signal_chain: [
        { at: new Date(T0 - 1500).toISOString(), kind: 'console_error', disposition: 'record', reason: 'console_error', message: 'cart total is NaN' },
        { at: new Date(T0).toISOString(), kind: 'assertion', disposition: 'trigger', reason: 'assertion_failed', message: null },
      ],
      console_errors: [{ at: new Date(T0 - 1500).toISOString(), message: 'cart total is NaN', url: 'https://shop.test/app.js' }],
      failed_requests: [
        { at: new Date(T0 - 800).toISOString(), url: 'https://shop.test/api/order', method: 'POST', status: 502, resource_type: 'fetch', duration_ms: 120, error_text: null },
      ],
      page_metrics: { dom_nodes: 7, max_depth: 5, frames: 0, shadow_roots: 1, snapshot_truncated: false, viewport: { width: 1280, height: 720, scroll_x: 0, scroll_y: 0 } },
      redaction: { fields: { password: 1 }, text: { email: 1 } },
      capture: {
        frames_in_bundle: 4,
        fps: 1.7,
        masked_regions: 0,
        dropped_frames: 0,
        frames_in_ring: 9,
        ring_bytes: 180_000,
        window_start: new Date(T0 - 3000).toISOString(),
        window_end: new Date(T0).toISOString(),
        captures_ok: 9,
        capture_errors: 0,
        quota_errors: 0,
        evicted_frames: 0,
        last_capture_error: null,
      },
      other_tabs: [
        {
          tab_id: 9,
          url: 'https://mail.test/inbox',
          steps: 2,
          signals: 0,
          frames: 3,
          last_activity_at: new Date(T0 - 1200).toISOString(),
          last_steps: [
            { at: new Date(T0 - 2500).toISOString(), kind: 'navigate', action: 'navigate', label: null },
            { at: new Date(T0 - 1200).toISOString(), kind: 'click', action: HOSTILE, label: null },
          ],
        },
      ],
      debugger: { attached: true, error: null },
      timings_ms: { snapshot: 12, frames: 8, clip: 420, before_zip: 431 },
      clip_error: null,
      warnings: ['frame 3 was evicted while the bundle was being packaged'],
    },
    snapshot: {
      version: 1,
      bundle_id: 'afr-20261122T120000Z-abcdef',
      error: null,
      snapshot: {
        url: 'https://shop.test/checkout',
        title: 'Checkout',
        taken_at: T0,
        viewport: { width: 1280, height: 720, scroll_x: 0, scroll_y: 0 },
        node_count: 7,
        truncated: false,
        redaction: { fields: { password: 1 }, text: { email: 1 } },
        root: {
          tag: 'body',
          children: [
            {
              tag: 'main',
              children: [
                {
                  tag: 'form',
                  attributes: { id: 'checkout', action: '/checkout/submit' },
                  children: [
                    {
                      tag: 'div',
                      children: [
                        { tag: 'input', role: 'textbox', name: 'Password', attributes: { type: 'password', id: 'pw' }, value: null, value_redacted: true, redaction_kind: 'password', rect: { x: 10, y: 20, width: 200, height: 24 } },
                        { tag: 'input', role: 'textbox', name: 'Name', attributes: { type: 'text', id: 'name' }, value: 'Jane' },
                      ],
                    },
                    { tag: 'p', text: `Contact [email] ${HOSTILE}` },
                    { tag: 'card-widget', shadow_root: true, children: [{ tag: 'span', text: 'inside the shadow root' }] },
                  ],
                },
              ],
            },
          ],
        },
      },
    },
  };
}

/** The same bundle as `writeBundle` input: tiny fake JPEGs and clip. */
export function makeBundleContents(data: BundleData = makeBundleData()): BundleContents {
  const { artifacts: _a, frames: _f, frame_count: _c, ...manifest } = data.manifest;
  return {
    manifest,
    steps: data.steps,
    diagnostics: data.diagnostics!,
    snapshot: data.snapshot!,
    frames: data.manifest.frames.map((f, i) => ({ jpeg: new Uint8Array([0xff, 0xd8, i]), ts: f.ts, durationMs: f.duration_ms, width: f.width, height: f.height })),
    clip: new Uint8Array([0, 0, 0, 24, 0x66, 0x74, 0x79, 0x70]),
  };
}

/** The same bundle zipped by the recorder's own writer; `contents` replaces parts of its input. */
export async function makeBundleZip(contents: Partial<BundleContents> = {}): Promise<Uint8Array> {
  return (await writeBundle({ ...makeBundleContents(), ...contents })).zip;
}

/** Custom redaction rules a version 1 manifest carried in full (version 2 carries their counts). */
export const V1_REDACTION_RULES = { selectors: ['#ssn', '.salary'], fieldNamePatterns: ['^secret'], textPatterns: ['\\bACME-\\d{6}\\b'] };

/** `manifest` as a version 1 recorder wrote it: the full settings, custom redaction rules included. */
export function manifestV1(manifest: Omit<Manifest, 'version' | 'settings'> & Partial<Manifest>): Record<string, unknown> {
  // Version 1 knew no delivery: its settings have no `upload`.
  const { upload: _upload, ...settings } = DEFAULT_SETTINGS;
  return { ...manifest, version: 1, settings: { ...settings, redaction: V1_REDACTION_RULES } };
}

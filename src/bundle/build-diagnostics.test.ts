import { describe, expect, it } from 'vitest';
import { DiagnosticsSchema } from '../../schemas/diagnostics';
import type { FailureSignal } from '../../schemas/failure';
import type { PageSnapshot } from '../../schemas/snapshot';
import type { Step } from '../../schemas/steps';
import { buildDiagnostics, type DiagnosticsInput } from './build-diagnostics';

const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);
const signal: FailureSignal = { kind: 'http_5xx', request: null, reason: 'http_5xx', label: null, origin: 'debugger', tab_id: 7, url: 'https://shop.test/', ts: T0, message: '502', stack: null, http_status: 502 };
const snapshot = {
  url: 'https://shop.test/', title: 'Shop', taken_at: T0, viewport: { width: 1280, height: 720, scroll_x: 0, scroll_y: 0 }, node_count: 1, truncated: false,
  root: { tag: 'body' }, redaction: { fields: { password: 1 }, text: {} },
} as PageSnapshot;
const consoleError: Step = { ts: T0 - 500, seq: 1, tab_id: 7, frame_id: null, url: 'https://shop.test/', source: 'recorder', kind: 'signal', action: 'signal: console_error', target: null, value: null, value_redacted: false, outcome: 'fail', label: 'widget', detail: { signal_kind: 'console_error', disposition: 'record', message: 'widget' } };

const input = (over: Partial<DiagnosticsInput> = {}): DiagnosticsInput => ({
  bundleId: 'afr-20261122T120000Z-abcdef',
  signal,
  suppressedBefore: 2,
  steps: [consoleError],
  snapshot: { ok: true, snapshot },
  framesInBundle: 3,
  captureTimes: [T0 - 14_000, T0 - 9_000, T0 - 4_000],
  windowStart: T0 - 15_000,
  windowEnd: T0 + 1_000,
  capture: { capturesOk: 30, captureErrors: 1, quotaErrors: 2, dropped: 3, maskedRegions: 4, lastError: 'quota', fps: 1.7 },
  ring: { frames: 40, bytes: 4_000, evicted: 5 },
  debugger: { attached: true, error: null },
  timings: { snapshot: 20, frames: 5, clip: 300, before_zip: 330 },
  clip: null,
  warnings: ['w'],
  ...over,
});

describe('buildDiagnostics', () => {
  it('repeats network.har’s counts when the bundle has one, and has none without', () => {
    const network = { requests_seen: 10_000, dropped_requests: 8_000, truncated_headers: 1, omitted_bodies: { too_large: 1, stream: 2 }, withheld_values: 3, masked_spans: 4 };
    const diagnostics = buildDiagnostics(input({ network }));
    expect(DiagnosticsSchema.safeParse(diagnostics).success).toBe(true);
    expect(diagnostics.network).toEqual(network);
    expect('network' in buildDiagnostics(input())).toBe(false);
  });

  it('tells the failure, the signals that led to it, the page’s figures and how the capture went, schema-valid', () => {
    const diagnostics = buildDiagnostics(input());
    expect(DiagnosticsSchema.safeParse(diagnostics).success).toBe(true);
    expect(diagnostics).toMatchObject({
      bundle_id: 'afr-20261122T120000Z-abcdef',
      failure: signal,
      suppressed_signals: 2,
      signal_chain: [{ kind: 'console_error', disposition: 'record' }],
      console_errors: [{ message: 'widget' }],
      failed_requests: [],
      redaction: { fields: { password: 1 }, text: {} },
      capture: {
        frames_in_bundle: 3, fps: 0.2, masked_regions: 4, dropped_frames: 3, frames_in_ring: 40, ring_bytes: 4_000,
        window_start: new Date(T0 - 14_000).toISOString(), window_end: new Date(T0 + 1_000).toISOString(),
        captures_ok: 30, capture_errors: 1, quota_errors: 2, evicted_frames: 5, last_capture_error: 'quota',
      },
      debugger: { attached: true, error: null },
      timings_ms: { snapshot: 20, frames: 5, clip: 300, before_zip: 330 },
      clip_error: null,
      warnings: ['w'],
    });
    expect(diagnostics).not.toHaveProperty('other_tabs');
    expect(diagnostics.capture).not.toHaveProperty('dropped_frames_by_reason');
  });

  it.each([
    { name: 'no clip asked', clip: null, want: null },
    { name: 'a clip made', clip: { ok: true as const, mp4: new Uint8Array(1), durationSeconds: 2, encoder: 'webcodecs' }, want: null },
    { name: 'a clip that failed', clip: { ok: false as const, error: 'encoder crashed' }, want: 'encoder crashed' },
  ])('clip_error: $name', ({ clip, want }) => {
    expect(buildDiagnostics(input({ clip })).clip_error).toBe(want);
  });

  it.each([
    { name: 'no snapshot: no page figures, no redaction counts', over: { snapshot: { ok: false as const, error: 'gone' } }, want: { redaction: { fields: {}, text: {} } } },
    { name: 'no frame: no window start, no rate', over: { captureTimes: [] }, want: { capture: expect.objectContaining({ window_start: null, fps: 0 }) } },
    {
      name: 'a still page’s frame from long before the window counts from the window’s start',
      over: { captureTimes: [T0 - 600_000, T0 - 1_000], windowStart: T0 - 3_000 },
      want: { capture: expect.objectContaining({ fps: 0.5, window_start: new Date(T0 - 600_000).toISOString() }) },
    },
    { name: 'the rate is over the window, not the capture loop’s', over: { captureTimes: [T0 - 1_000, T0 - 500, T0] }, want: { capture: expect.objectContaining({ fps: 1.5 }) } },
    {
      name: 'frames that show less than the viewport',
      over: { viewportCut: { frames: 3, viewport: { width: 1280, height: 720 }, shown: { width: 1280, height: 577 } } },
      want: { capture: expect.objectContaining({ viewport_cut: { frames: 3, viewport: { width: 1280, height: 720 }, shown: { width: 1280, height: 577 } } }) },
    },
    { name: 'the other tabs asked for', over: { otherTabs: [] }, want: { other_tabs: [] } },
    {
      name: 'drops by reason',
      over: { capture: { ...input().capture, droppedByReason: { 'no-report': 3, 'stale-report': 0, 'viewport-mismatch': 0, 'page-unresponsive': 0, 'not-recording': 0 } } },
      want: { capture: expect.objectContaining({ dropped_frames_by_reason: expect.objectContaining({ 'no-report': 3 }) }) },
    },
  ] as { name: string; over: Partial<DiagnosticsInput>; want: object }[])('$name', ({ over, want }) => {
    const diagnostics = buildDiagnostics(input(over));
    expect(DiagnosticsSchema.safeParse(diagnostics).success).toBe(true);
    expect(diagnostics).toMatchObject(want);
  });
});

import { describe, expect, it } from 'vitest';
import type { FailureSignal } from '../../schemas/failure';
import type { Step } from '../../schemas/steps';
import { DEFAULT_SETTINGS } from '../../schemas/settings';
import { buildManifest, type ManifestInput } from './build-manifest';

const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);
const iso = (ts: number) => new Date(ts).toISOString();
const signal: FailureSignal = { kind: 'fail', request: null, reason: 'assertion_failed', label: 'total', origin: 'agent', tab_id: 7, url: 'https://shop.test/cart', ts: T0, message: 'total is 0', stack: null, http_status: null };

const step = (ts: number, name: string): Step => ({ ts, seq: 0, tab_id: 7, frame_id: 0, url: 'https://shop.test/cart', source: 'observer', kind: 'click', action: 'click', target: { tag: 'button', role: 'button', name, selector: 'button' }, value: null, value_redacted: false, outcome: null, label: null });
const steps = [step(T0 - 12_000, 'Add 3 to cart'), step(T0 - 9_000, 'Update'), step(T0 - 4_000, 'Check out'), step(T0 - 1_000, 'Pay 12.50 EUR')];

const input = (over: Partial<ManifestInput> = {}): ManifestInput => ({
  bundleId: 'b',
  runId: 'run-1',
  signal,
  settings: DEFAULT_SETTINGS,
  options: { status: 'failure', level: 'full', run: null, outcome: null },
  firstFrameTs: T0 - 10_000,
  firstStepTs: T0 - 12_000,
  steps,
  maskedRegions: 3,
  droppedFrames: 1,
  clip: null,
  extension: { name: 'Agent Flight Recorder', version: '0.1.0' },
  ...over,
});

describe('buildManifest', () => {
  it('says what failed where, in which run and how frames were taken', () => {
    expect(buildManifest(input())).toMatchObject({
      bundle_id: 'b',
      run_id: 'run-1',
      status: 'failure',
      ended_at: iso(T0),
      failure_reason: 'assertion_failed',
      failure_label: 'total',
      failure_message: 'total is 0',
      url_at_failure: 'https://shop.test/cart',
      tab_id: 7,
      step_count: 4,
      buffer_seconds: DEFAULT_SETTINGS.bufferSeconds,
      capture_level: 'full',
      run: { agent: null, agent_version: null, task: null, started_at: null, outcome: null },
      clip: null,
      capture: { source: DEFAULT_SETTINGS.captureSource, fps: DEFAULT_SETTINGS.fps, masked_regions: 3, dropped_frames: 1, jpeg_quality: DEFAULT_SETTINGS.jpegQuality },
      extension: { name: 'Agent Flight Recorder', version: '0.1.0' },
    });
  });

  it('fingerprints a failure by its parts, not by its run\'s values; a success has none', () => {
    const manifest = buildManifest(input());
    expect(manifest.signature).toEqual({ reason: 'assertion_failed', message: 'total is <n>', page: 'shop.test/cart', request: null, frames: [], step: 'click button "Pay <n> EUR"' });
    expect(manifest.fingerprint).toMatch(/^[0-9a-f]{16}$/);
    const again = buildManifest(input({ bundleId: 'c', signal: { ...signal, ts: T0 + 5_000, message: 'total is 17' }, steps: [step(T0, 'Pay 99.00 EUR')] }));
    expect(again.fingerprint).toBe(manifest.fingerprint);
    expect(buildManifest(input({ signal: { ...signal, message: 'cart is empty' } })).fingerprint).not.toBe(manifest.fingerprint);
    const success = buildManifest(input({ options: { status: 'success', level: 'full', run: null, outcome: 'passed' } }));
    expect(success.fingerprint).toBeUndefined();
    expect(success.signature).toBeUndefined();
  });

  it.each([
    { name: 'a step before the first frame', firstFrameTs: T0 - 10_000, firstStepTs: T0 - 12_000, want: T0 - 12_000 },
    { name: 'a frame before the first step', firstFrameTs: T0 - 10_000, firstStepTs: T0 - 2_000, want: T0 - 10_000 },
    { name: 'no frame', firstFrameTs: null, firstStepTs: T0 - 2_000, want: T0 - 2_000 },
    { name: 'neither: at the failure', firstFrameTs: null, firstStepTs: null, want: T0 },
  ])('starts at the first frame or step: $name', ({ firstFrameTs, firstStepTs, want }) => {
    expect(buildManifest(input({ firstFrameTs, firstStepTs })).started_at).toBe(iso(want));
  });

  it.each([
    { name: 'none asked', clip: null, want: null },
    { name: 'failed', clip: { ok: false as const, error: 'x' }, want: null },
    { name: 'made', clip: { ok: true as const, mp4: new Uint8Array(1), durationSeconds: 4.5, encoder: 'ffmpeg' }, want: { name: 'failure.mp4', duration_seconds: 4.5, encoder: 'ffmpeg' } },
  ])('names the clip only when one was made: $name', ({ clip, want }) => {
    expect(buildManifest(input({ clip })).clip).toEqual(want);
  });

  it('carries the run it is of, and the custom redaction rules only as counts', () => {
    const run = { runId: 'nightly-7', agent: 'bot', agentVersion: '2', task: 'pay', startedAt: T0 - 60_000 };
    const redaction = { selectors: ['#ssn'], fieldNamePatterns: [], textPatterns: ['ACME-\\d+'] };
    const manifest = buildManifest(input({ options: { status: 'success', level: 'screenshots', run, outcome: 'passed' }, settings: { ...DEFAULT_SETTINGS, redaction } }));
    expect(manifest).toMatchObject({ status: 'success', capture_level: 'screenshots', run: { agent: 'bot', agent_version: '2', task: 'pay', started_at: iso(T0 - 60_000), outcome: 'passed' } });
    expect(manifest.settings.redaction).toEqual({ selectors: 1, fieldNamePatterns: 0, textPatterns: 1 });
    expect(JSON.stringify(manifest)).not.toContain('ACME');
  });
});

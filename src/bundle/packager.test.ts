import JSZip from 'jszip';
import { describe, expect, it, vi } from 'vitest';
import { packageBundle, type BundleRequest, type PackagerPorts } from './packager';
import { MemoryBundleStore } from './memory-bundle-store';
import { FrameRing } from '../ring/frame-ring';
import { MemoryFrameStore } from '../ring/memory-frame-store';
import { StepLog } from '../steps/step-log';
import { MemoryStepStore } from '../../test/fakes/memory-step-store';
import { DEFAULT_SETTINGS } from '../../schemas/settings';
import { BUNDLE_FILE_SCHEMAS } from '../../schemas/registry';
import { ManifestSchema } from '../../schemas/manifest';
import { DiagnosticsSchema } from '../../schemas/diagnostics';
import { StepsFileSchema } from '../../schemas/steps';
import type { FailureSignal } from '../../schemas/failure';
import type { PageSnapshot } from '../../schemas/snapshot';

const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);

const snapshot: PageSnapshot = {
  url: 'https://shop.test/checkout',
  title: 'Checkout',
  taken_at: T0,
  viewport: { width: 1280, height: 720, scroll_x: 0, scroll_y: 0 },
  node_count: 1,
  truncated: false,
  root: { tag: 'body', children: [{ tag: 'input', value: null, value_redacted: true, redaction_kind: 'password' }] },
  redaction: { fields: { password: 1 }, text: { email: 2 } },
};

async function setup(over: Partial<PackagerPorts> = {}) {
  const clock = { t: T0, now() { return this.t; } };
  const ring = new FrameRing(new MemoryFrameStore(), clock, { maxAgeMs: 15_000, maxBytes: 1 << 24 });
  const timeline = new StepLog(new MemoryStepStore(), clock, { maxSteps: 100, maxAgeMs: 60_000 });
  // 20 s of frames at 600 ms for tab 1, a few of tab 2; the ring holds 15 s of them.
  for (let t = T0 - 20_000; t <= T0; t += 600) {
    clock.t = t;
    await ring.add({ tabId: 1, windowId: 1, url: 'https://shop.test/', ts: t, size: 3, width: 1280, height: 720 }, new Uint8Array([0xff, 0xd8, t % 256]));
    if (t % 3 === 0) await ring.add({ tabId: 2, windowId: 2, url: 'https://other.test/', ts: t, size: 1, width: 1, height: 1 }, new Uint8Array([2]));
  }
  await timeline.add({ ts: T0 - 30_000, tab_id: 1, frame_id: 0, url: null, source: 'observer', kind: 'click', action: 'click', target: null, value: null, value_redacted: false, outcome: null, label: 'too old' });
  await timeline.add({ ts: T0 - 2_000, tab_id: 1, frame_id: 0, url: null, source: 'observer', kind: 'input', action: 'type', target: null, value: null, value_redacted: true, outcome: null, label: null });
  await timeline.add({ ts: T0 - 1_000, tab_id: null, frame_id: null, url: null, source: 'agent', kind: 'agent', action: 'open checkout', target: null, value: null, value_redacted: false, outcome: 'ok', label: null });
  await timeline.add({ ts: T0 - 500, tab_id: 2, frame_id: 0, url: null, source: 'observer', kind: 'click', action: 'other tab', target: null, value: null, value_redacted: false, outcome: null, label: null });
  clock.t = T0 + 50;
  const bundles = new MemoryBundleStore();
  const encodeClip = vi.fn<PackagerPorts['encodeClip']>(async (_job, frames) => ({
    ok: true as const,
    mp4: new Uint8Array([0, 0, 0, 24, 0x66, 0x74, 0x79, 0x70]),
    durationSeconds: frames.reduce((s, f) => s + f.duration_ms, 0) / 1000,
    encoder: 'fake',
  }));
  const ports: PackagerPorts = {
    clock,
    ring,
    stepLog: timeline,
    bundles,
    extension: { name: 'Agent Flight Recorder', version: '0.1.0' },
    capture: { stats: () => ({ capturesOk: 30, captureErrors: 0, quotaErrors: 0, dropped: 0, maskedRegions: 0, lastError: null, fps: 1.7 }) },
    debuggerState: () => ({ attached: true, error: null }),
    snapshot: async () => ({ ok: true, snapshot }),
    encodeClip,
    log: () => {},
    ...over,
  };
  return { ports, bundles, encodeClip };
}

const signal: FailureSignal = {
  kind: 'assertion',
  request: null,
  reason: 'assertion_failed',
  label: 'order confirmation missing',
  origin: 'page',
  tab_id: 1,
  url: 'https://shop.test/checkout',
  ts: T0,
  message: 'order confirmation missing',
  stack: null,
  http_status: null,
};

const request = (over: Partial<BundleRequest> = {}): BundleRequest => ({
  signal,
  suppressedBefore: 0,
  settings: DEFAULT_SETTINGS,
  runId: 'run-1',
  status: 'failure',
  level: 'full',
  run: null,
  outcome: null,
  ...over,
});

async function unzip(zip: Uint8Array) {
  const archive = await JSZip.loadAsync(zip);
  const json = async (name: string) => JSON.parse(await archive.file(name)!.async('string')) as unknown;
  return { archive, json, names: Object.keys(archive.files) };
}

describe('packageBundle', () => {
  it('writes a schema-valid bundle with the failing tab’s frames in time order, a clip and the steps', async () => {
    const windows: unknown[] = [];
    const { ports, bundles, encodeClip } = await setup({
      network: {
        har: (tabId, start, end, creator) => {
          windows.push([tabId, start, end]);
          return Promise.resolve({ log: { version: '1.2', creator, pages: [], entries: [], _afr: { requests_seen: 0, dropped_requests: 0, truncated_headers: 0, omitted_bodies: {}, withheld_values: 0, masked_spans: 0 } } });
        },
      },
    });
    const { summary, zip } = await packageBundle(ports, request({ suppressedBefore: 3 }));
    expect(await bundles.read(summary.id)).toBe(zip);
    const { names, json } = await unzip((await bundles.read(summary.id))!);

    expect(names[0]).toBe('manifest.json');
    // No agent calls in this window: no agent.json (src/recorder/agent-calls-bundle.test.ts has one).
    expect(names).not.toContain('agent.json');
    for (const [file, schema] of Object.entries(BUNDLE_FILE_SCHEMAS)) if (file !== 'agent.json') expect(schema.safeParse(await json(file)).success).toBe(true);
    const manifest = ManifestSchema.parse(await json('manifest.json'));
    expect(manifest).toMatchObject({ bundle_id: summary.id, run_id: 'run-1', status: 'failure', failure_reason: 'assertion_failed', failure_label: 'order confirmation missing', tab_id: 1, buffer_seconds: 15 });
    // 25 frames in the window, after the last one from before it (the screen at the window's start).
    expect(manifest.frame_count).toBe(26);
    // network.har: the failing tab's requests in the bundle's window, listed like every file.
    expect(windows).toEqual([[1, T0 - 15_000, expect.any(Number)]]);
    expect(manifest.artifacts.map((a) => a.name)).toContain('network.har');
    const times = manifest.frames.map((f) => f.ts);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(manifest.frames[1]).toMatchObject({ name: 'frames/frame_0002.jpeg', duration_ms: 600, width: 1280, height: 720 });
    expect(names.filter((n) => n.startsWith('frames/frame_'))).toEqual(Array.from({ length: 26 }, (_, i) => `frames/frame_${String(i + 1).padStart(4, '0')}.jpeg`));
    expect(manifest.artifacts.map((a) => a.name)).toEqual(expect.arrayContaining(['snapshot.json', 'steps.json', 'diagnostics.json', 'failure.mp4', 'frames/frame_0001.jpeg']));
    expect(manifest.clip).toEqual({ name: 'failure.mp4', duration_seconds: expect.closeTo(15.3, 3), encoder: 'fake' });

    const clipFrames = encodeClip.mock.calls[0]![1];
    expect(clipFrames).toHaveLength(26);
    expect(clipFrames[0]!.duration_ms).toBe(400); // counted from the window's start
    expect(clipFrames.slice(1, -1).every((f) => f.duration_ms === 600)).toBe(true);

    const steps = StepsFileSchema.parse(await json('steps.json')).steps.map((s) => s.action);
    expect(steps).toEqual(['type', 'open checkout']);
    const diagnostics = DiagnosticsSchema.parse(await json('diagnostics.json'));
    expect(diagnostics.suppressed_signals).toBe(3);
    expect(diagnostics.redaction).toEqual(snapshot.redaction);
    expect(diagnostics.failure).toEqual(signal);
    // Stored, and nothing more: retention and downloads are the sinks'.
    expect(await bundles.list()).toEqual([{ ...summary, downloadId: null }]);
    expect(summary).toMatchObject({ reason: 'assertion_failed', tabId: 1, sizeBytes: zip.byteLength });
  });

  it('writes each frame’s own viewport into its manifest entry: a window resized during the run, a frame stored without one', async () => {
    const { ports, bundles } = await setup();
    const before = { width: 1280, height: 720, device_pixel_ratio: 1, image_scale: 1 };
    const after = { width: 1000, height: 600, device_pixel_ratio: 2, image_scale: 2, scroll: { x: 0, y: 40 } };
    const frames = [
      { ts: T0 - 3_000, width: 1280, height: 720, viewport: before },
      { ts: T0 - 2_000, width: 2000, height: 1200, viewport: after },
      { ts: T0 - 1_000, width: 2000, height: 1200 }, // stored before frames said their viewport
    ];
    for (const [i, f] of frames.entries()) await ports.ring.add({ tabId: 3, windowId: 3, url: 'https://shop.test/', size: 3, ...f }, new Uint8Array([0xff, 0xd8, i]));
    const { summary } = await packageBundle(ports, request({ signal: { ...signal, tab_id: 3 } }));
    const manifest = ManifestSchema.parse(await (await unzip((await bundles.read(summary.id))!)).json('manifest.json'));
    expect(manifest.frames.map((f) => [f.width, f.viewport])).toEqual([
      [1280, before],
      [2000, after],
      [2000, undefined],
    ]);
  });

  it('says in diagnostics.json when frames show less than the page\u2019s viewport, and how to fix it', async () => {
    const { ports, bundles } = await setup();
    const viewport = { width: 1280, height: 720, device_pixel_ratio: 1, image_scale: 1 };
    const shown = { width: 1280, height: 577 };
    for (const [i, ts] of [T0 - 3_000, T0 - 2_000].entries()) {
      await ports.ring.add({ tabId: 3, windowId: 3, url: 'https://shop.test/', size: 3, ts, width: 1280, height: 577, viewport: { ...viewport, shown } }, new Uint8Array([0xff, 0xd8, i]));
    }
    await ports.ring.add({ tabId: 3, windowId: 3, url: 'https://shop.test/', size: 3, ts: T0 - 1_000, width: 1280, height: 720, viewport }, new Uint8Array([0xff, 0xd8, 9]));
    const { summary } = await packageBundle(ports, request({ signal: { ...signal, tab_id: 3 } }));
    const diagnostics = DiagnosticsSchema.parse(await (await unzip((await bundles.read(summary.id))!)).json('diagnostics.json'));
    expect(diagnostics.capture.viewport_cut).toEqual({ frames: 2, viewport: { width: 1280, height: 720 }, shown });
    expect(diagnostics.warnings).toContainEqual(expect.stringMatching(/^2 of 3 frames show 1280×577 of the page's 1280×720 viewport .*--silent-debugger-extension-api/));
  });

  it('sends the clip encoder the frames kept in memory (storage full) in its message, the stored ones by key', async () => {
    const clock = { t: T0, now() { return this.t; } };
    const store = new MemoryFrameStore();
    const add = store.add.bind(store);
    let full = false;
    store.add = (frame, jpeg) => (full ? Promise.reject(Object.assign(new Error(''), { name: 'QuotaExceededError' })) : add(frame, jpeg));
    const ring = new FrameRing(store, clock, { maxAgeMs: 15_000, maxBytes: 1 << 24 });
    for (let i = 0; i < 6; i++) {
      full = i >= 3;
      clock.t = T0 - 3_000 + i * 500;
      await ring.add({ tabId: 1, windowId: 1, url: 'https://shop.test/', ts: clock.t, size: 3, width: 1280, height: 720 }, new Uint8Array([0xff, 0xd8, i]));
    }
    clock.t = T0 + 50;
    const { ports, encodeClip } = await setup({ ring, clock });
    await packageBundle(ports, request());
    const refs = encodeClip.mock.calls[0]![1];
    // Two of the three stored frames went to make room (the older half of what the store held).
    expect(refs.map((r) => r.jpeg_base64 ?? null)).toEqual([null, ...[3, 4, 5].map((i) => Buffer.from([0xff, 0xd8, i]).toString('base64'))]);
  });

  it('stores a frame identical to the one before it once: one entry covers both moments, the clip keeps its length', async () => {
    const clock = { t: T0, now() { return this.t; } };
    const ring = new FrameRing(new MemoryFrameStore(), clock, { maxAgeMs: 15_000, maxBytes: 1 << 24 });
    // A still page every 125 ms for 2 s, a click repaints it, then still again until the failure
    // (the last capture is shown for at least LAST_FRAME_MIN_MS).
    const still = new Uint8Array([0xff, 0xd8, 1, 2, 3]);
    const clicked = new Uint8Array([0xff, 0xd8, 1, 2, 4]);
    for (let i = 0; i < 24; i++) {
      clock.t = T0 - 3_000 + i * 125;
      await ring.add({ tabId: 1, windowId: 1, url: 'https://shop.test/', ts: clock.t, size: 5, width: 1280, height: 720, masked: 1 }, (i < 16 ? still : clicked).slice());
    }
    clock.t = T0 + 50;
    const { ports, bundles, encodeClip } = await setup({ ring, clock });
    const { summary } = await packageBundle(ports, request());
    const { names, json } = await unzip((await bundles.read(summary.id))!);
    const manifest = ManifestSchema.parse(await json('manifest.json'));

    expect(names.filter((n) => n.startsWith('frames/frame_'))).toEqual(['frames/frame_0001.jpeg', 'frames/frame_0002.jpeg']);
    expect(manifest.frame_count).toBe(2);
    expect(manifest.frames.map((f) => [f.ts, f.duration_ms, f.captures, f.last_ts])).toEqual([
      [T0 - 3_000, 2_000, 16, T0 - 3_000 + 15 * 125],
      [T0 - 1_000, 1_375, 8, T0 - 1_000 + 7 * 125],
    ]);
    expect(manifest.capture.masked_regions).toBe(24);
    const clipFrames = encodeClip.mock.calls[0]![1];
    expect(clipFrames.map((f) => f.duration_ms)).toEqual([2_000, 1_375]);
    expect(manifest.clip?.duration_seconds).toBeCloseTo(3.375, 3);
  });

  it('still writes a bundle when the clip and the snapshot fail, and says why', async () => {
    const { ports, bundles } = await setup({
      encodeClip: async () => ({ ok: false, error: 'encoder crashed' }),
      snapshot: async () => {
        throw new Error('Could not establish connection. Receiving end does not exist.');
      },
    });
    const { summary } = await packageBundle(ports, request());
    const { names, json } = await unzip((await bundles.read(summary.id))!);
    expect(names).not.toContain('failure.mp4');
    expect(await json('snapshot.json')).toMatchObject({ snapshot: null, error: expect.stringContaining('Receiving end') });
    const diagnostics = DiagnosticsSchema.parse(await json('diagnostics.json'));
    expect(diagnostics.clip_error).toBe('encoder crashed');
    expect(diagnostics.warnings.join(' ')).toMatch(/no DOM snapshot/);
    expect(ManifestSchema.parse(await json('manifest.json')).clip).toBeNull();
  });

  it('bundles at the capture level asked for, with the settings and run it is given', async () => {
    const { ports, bundles, encodeClip } = await setup();
    const run = { runId: 'nightly-7', agent: 'bot', agentVersion: null, task: 'pay', startedAt: T0 - 60_000 };
    const { summary } = await packageBundle(ports, request({ level: 'screenshots', settings: { ...DEFAULT_SETTINGS, bufferSeconds: 5 }, runId: 'nightly-7', run, status: 'success', outcome: 'passed' }));
    const { names, json } = await unzip((await bundles.read(summary.id))!);
    expect(encodeClip).not.toHaveBeenCalled();
    expect(names).not.toContain('failure.mp4');
    const manifest = ManifestSchema.parse(await json('manifest.json'));
    expect(manifest).toMatchObject({ run_id: 'nightly-7', status: 'success', capture_level: 'screenshots', buffer_seconds: 5 });
    // 5 s of frames at 600 ms, after the one from before the window.
    expect(manifest.frame_count).toBe(10);
  });

  it('carries the settings in the manifest, the custom redaction rules only as counts', async () => {
    const { ports, bundles } = await setup();
    const redaction = { selectors: ['#employee-ssn', '.salary-figure'], fieldNamePatterns: ['^secret_field'], textPatterns: ['ACME-\\d{6}'] };
    const { summary } = await packageBundle(ports, request({ settings: { ...DEFAULT_SETTINGS, bufferSeconds: 5, redaction } }));
    const { archive, json, names } = await unzip((await bundles.read(summary.id))!);
    const manifest = ManifestSchema.parse(await json('manifest.json'));
    expect(manifest.settings).toMatchObject({ bufferSeconds: 5, redaction: { selectors: 2, fieldNamePatterns: 1, textPatterns: 1 } });
    for (const name of names.filter((n) => !n.startsWith('frames/') && n !== 'failure.mp4')) {
      const text = await archive.file(name)!.async('string');
      for (const rule of ['employee-ssn', 'salary-figure', 'secret_field', 'ACME-']) expect(text, name).not.toContain(rule);
    }
  });
});

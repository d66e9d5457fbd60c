/**
 * `npx tsx bench/packaging.ts`: what packaging a bundle costs from the ring to the stored zip
 * (`packageBundle`, the clip encoder and the DOM snapshot faked), printed as medians, never asserted.
 * A realistic ring: 120 frames of 60 KB of one tab, one every 125 ms, in three shapes:
 *   - all different, and of one length, different only in their last bytes (the worst case for the
 *     comparison of a frame with the one before it: every byte is compared);
 *   - a still page: runs of 8 identical frames (15 pictures);
 *   - one picture all along.
 * `AFR_ROOT=/path/to/another/checkout` runs another version of the code: that is how the before/after
 * figures are made. BENCH_ROUNDS (default 15) tunes it.
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import JSZip from 'jszip';
// The types of this checkout's modules; AFR_ROOT's may be older, with the same exports used here.
import type * as Packager from '../src/bundle/packager';
import type * as BundleStore from '../src/bundle/memory-bundle-store';
import type * as Ring from '../src/ring/frame-ring';
import type * as FrameStore from '../src/ring/memory-frame-store';
import type * as Steps from '../src/steps/step-log';
import type * as StepStore from '../test/fakes/memory-step-store';
import type * as Settings from '../schemas/settings';

const ROOT = process.env.AFR_ROOT ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const FRAMES = 120;
const FRAME_BYTES = 60_000;
const INTERVAL_MS = 125;

const load = async <T>(file: string): Promise<T> => (await import(pathToFileURL(path.join(ROOT, file)).href)) as T;
const { packageBundle } = await load<typeof Packager>('src/bundle/packager.ts');
const { MemoryBundleStore } = await load<typeof BundleStore>('src/bundle/memory-bundle-store.ts');
const { FrameRing } = await load<typeof Ring>('src/ring/frame-ring.ts');
const { MemoryFrameStore } = await load<typeof FrameStore>('src/ring/memory-frame-store.ts');
const { StepLog } = await load<typeof Steps>('src/steps/step-log.ts');
const { MemoryStepStore } = await load<typeof StepStore>('test/fakes/memory-step-store.ts');
const { DEFAULT_SETTINGS } = await load<typeof Settings>('schemas/settings.ts');

const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);

/** A JPEG-shaped picture number `n`: random bytes, the same for the same `n`, different at the end. */
function picture(n: number): Uint8Array {
  const bytes = new Uint8Array(FRAME_BYTES);
  let seed = 12345;
  for (let i = 0; i < bytes.length; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    bytes[i] = seed >>> 24;
  }
  bytes.set([0xff, 0xd8]);
  new DataView(bytes.buffer).setUint32(bytes.length - 4, n);
  return bytes;
}

async function packageOnce(pictureOf: (i: number) => number): Promise<{ ms: number; bytes: number; files: number }> {
  const clock = { t: T0, now() { return this.t; } };
  const ring = new FrameRing(new MemoryFrameStore(), clock, { maxAgeMs: 15_000, maxBytes: 1 << 28 });
  for (let i = 0; i < FRAMES; i++) {
    clock.t = T0 - FRAMES * INTERVAL_MS + i * INTERVAL_MS;
    await ring.add({ tabId: 1, windowId: 1, url: 'https://shop.test/', ts: clock.t, size: FRAME_BYTES, width: 1280, height: 720 }, picture(pictureOf(i)));
  }
  clock.t = T0 + 20;
  const now = () => performance.now();
  const timeline = new StepLog(new MemoryStepStore(), { now }, { maxSteps: 100, maxAgeMs: 60_000 });
  const signal = { kind: 'assertion' as const, request: null, reason: 'assertion_failed', label: null, origin: 'page' as const, tab_id: 1, url: null, ts: T0, message: null, stack: null, http_status: null };
  const start = now();
  const { summary, zip } = await packageBundle(
    {
      clock,
      ring,
      stepLog: timeline,
      bundles: new MemoryBundleStore(),
      extension: { name: 'Agent Flight Recorder', version: 'bench' },
      capture: { stats: () => ({ capturesOk: FRAMES, captureErrors: 0, quotaErrors: 0, dropped: 0, maskedRegions: 0, lastError: null, fps: 8 }) },
      debuggerState: () => ({ attached: false, error: null }),
      snapshot: async () => ({ ok: false, error: 'bench' }),
      encodeClip: async () => ({ ok: false, error: 'bench' }),
      log: () => {},
    },
    { signal, suppressedBefore: 0, settings: { ...DEFAULT_SETTINGS, bufferSeconds: 15 }, runId: 'bench', status: 'failure', level: 'full', run: null, outcome: null },
  );
  const ms = now() - start;
  const files = Object.keys((await JSZip.loadAsync(zip)).files).filter((n) => n.startsWith('frames/frame_')).length;
  return { ms, bytes: summary.sizeBytes, files };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const shapes: [string, (i: number) => number][] = [
  ['all different (worst case for the comparison)', (i) => i],
  ['still page, runs of 8 identical frames', (i) => Math.floor(i / 8)],
  ['one picture all along', () => 0],
];
console.log(`packaging ${FRAMES} frames of ${FRAME_BYTES / 1000} KB (${ROOT}), median of ${ROUNDS}:`);
for (const [name, pictureOf] of shapes) {
  await packageOnce(pictureOf); // warm-up
  const runs: { ms: number; bytes: number; files: number }[] = [];
  for (let r = 0; r < ROUNDS; r++) runs.push(await packageOnce(pictureOf));
  const { bytes, files } = runs[0]!;
  console.log(`  ${name.padEnd(48)} ${median(runs.map((r) => r.ms)).toFixed(1).padStart(7)} ms  ${(bytes / 1e6).toFixed(2)} MB zip, ${files} frame files`);
}

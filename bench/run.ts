/**
 * `npm run bench`: failure signal → bundle listed, bundle size and clip encoding time, as medians
 * over repeated runs with a full 15 s window at 1280×720, plus the capture rate reached. Figures
 * only: these machines are shared and noisy, so nothing here asserts a time.
 */
import { launchWithRecorder } from '../e2e/support/launch';
import { startSiteServer } from '../e2e/support/site-server';
import { afr, waitForNewBundle } from '../e2e/support/afr';
import { exportBundle } from '../e2e/support/bundle';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const WINDOW_SECONDS = 15;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};
const fmt = (xs: number[], unit: string, digits = 0) =>
  `median ${median(xs).toFixed(digits)} ${unit} (min ${Math.min(...xs).toFixed(digits)}, max ${Math.max(...xs).toFixed(digits)}, n=${xs.length})`;

async function main(): Promise<void> {
  const site = await startSiteServer();
  const browser = await launchWithRecorder();
  try {
    const { worker, context } = browser;
    const interval = process.env.BENCH_INTERVAL_MS ? { captureIntervalMs: Number(process.env.BENCH_INTERVAL_MS) } : {};
    await afr(worker, 'configure', { bufferSeconds: WINDOW_SECONDS, failureCooldownMs: 0, autoDownload: false, ...interval });
    const page = context.pages()[0] ?? (await context.newPage());
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(`${site.origin}/checkout.html`);
    console.log(`filling the ${WINDOW_SECONDS} s ring (animated page, 1280×720)…`);
    const fillStart = Date.now();
    await page.waitForTimeout((WINDOW_SECONDS + 1) * 1000);
    const warm = await afr(worker, 'status');
    const fps = warm.capturesOk / ((Date.now() - fillStart) / 1000);

    const viaApi: number[] = [];
    const viaPage: number[] = [];
    const sizes: number[] = [];
    const clipMs: number[] = [];
    const snapshotMs: number[] = [];
    const frames: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      // The automation API: the call resolves once the bundle is stored.
      let t = performance.now();
      const id = await afr(worker, 'fail', { reason: 'bench', label: `api run ${i}` });
      viaApi.push(performance.now() - t);
      const bundle = await exportBundle(worker, id);
      sizes.push(bundle.zip.byteLength);
      clipMs.push(bundle.diagnostics.timings_ms.clip);
      snapshotMs.push(bundle.diagnostics.timings_ms.snapshot);
      frames.push(bundle.manifest.frame_count);
      await afr(worker, 'deleteBundle', id);
      await page.waitForTimeout(1_000);

      // The page protocol: from postMessage until listBundles shows the bundle.
      const known = (await afr(worker, 'listBundles')).map((b) => b.id);
      t = performance.now();
      await page.evaluate(() => window.postMessage({ source: 'agent-flight-recorder', type: 'fail', reason: 'bench' }, '*'));
      const pageId = await waitForNewBundle(worker, known);
      viaPage.push(performance.now() - t);
      await afr(worker, 'deleteBundle', pageId);
      await page.waitForTimeout(1_000);
    }
    const end = await afr(worker, 'status');

    console.log('\nAgent Flight Recorder benchmark (visibleTab capture, ffmpeg.wasm clip)');
    console.log(`  capture rate              ${fps.toFixed(2)} frames/s, quota errors ${end.quotaErrors}, capture errors ${end.captureErrors}`);
    console.log(`  frames per bundle         ${fmt(frames, 'frames')}`);
    console.log(`  afr.fail → bundle stored  ${fmt(viaApi, 'ms')}`);
    console.log(`  page fail → bundle listed ${fmt(viaPage, 'ms')} (includes 200 ms polling granularity)`);
    console.log(`  clip encoding             ${fmt(clipMs, 'ms')}`);
    console.log(`  DOM snapshot round trip   ${fmt(snapshotMs, 'ms')}`);
    console.log(`  bundle size               ${fmt(sizes.map((s) => s / 1024), 'KiB')}`);
    console.log(`  ring                      ${end.frames} frames, ${(end.bytes / 1024 / 1024).toFixed(2)} MiB`);
  } finally {
    await browser.close();
    await site.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

/**
 * `npm run bench`: figures for the recorder, printed, never asserted (these machines are shared and
 * noisy: read medians and ratios). Sections:
 *   1. frames per second per capture source over 30 s of a busy page (animation + an agent clicking);
 *   2. failure signal → bundle stored, clip encoding time and bundle size, for full windows;
 *   3. agent slowdown (`bench/slowdown.ts`): the same ≥ 200-action workload with the extension off
 *      (twice: the second shows the noise), loaded but paused, on in each capture mode, and with
 *      Playwright's own tracing, in interleaved rounds, once as fast as Playwright goes and once with a
 *      short pause between actions; then the headline table: the default recorder against "off" and
 *      against Playwright tracing;
 *   4. a soak (`bench/soak.ts`): ring bytes, IndexedDB usage, the service worker's heap and the DOM
 *      timeline kept and written over a long run at 8 fps, with an agent acting every 250 ms
 *      (`BENCH_SOAK=busy`, the default) or on an idle animated page (`BENCH_SOAK=idle`);
 *   5. page loads: how much later a document's DOMContentLoaded comes with the extension (its
 *      content script runs in every frame at document_start, before the page's parser);
 *   6. navigation → first stored frame of the page, in a new tab and in a tab already recorded
 *      (`bench/first-frame.ts`), and the capture cost per frame (the extension's CPU);
 *   7. a page flooding its DOM (`bench/flood.ts`): the answer time of `afr.status()` and `afr.fail()`
 *      while it floods, and the CPU of the extension's process and of the page renderers
 *      (BENCH_FLOOD_SECONDS, default 20; not in the default sections: `BENCH_SECTIONS=7`);
 *   8. `afr triage` over 10,000 index objects in a local copy of a bucket and in s3rver on loopback,
 *      loose and compacted (`bench/triage.ts`; BENCH_TRIAGE_OBJECTS; not in the default sections: no
 *      browser, `BENCH_SECTIONS=8`).
 *   9. a busy page (a JSON API polled 10 times a second, `bench/network-busy.ts`): signal → bundle
 *      stored with its `network.har`, the HAR's requests and size (not in the default sections:
 *      `BENCH_SECTIONS=9`).
 * BENCH_REPS (default 3), BENCH_SOAK_SECONDS (default 60; the full check is 600), BENCH_SECTIONS
 * (e.g. "1,2"; "6" alone for the first frame), BENCH_THINK_MS (section 3's pauses between actions, default "0,50") and BENCH_MODES
 * (section 3's modes whose name contains one of these words, e.g. "paused"; default all; "off",
 * "auto" and "tracing", which the headline compares, always run) tune it.
 */
import { chromium } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromiumPath } from '../e2e/support/launch';
import { startSiteServer, type SiteServer } from '../e2e/support/site-server';
import { afr } from '../e2e/support/afr';
import { exportBundle } from '../e2e/support/bundle';
import type { Page } from 'playwright-core';
import { firstFrame } from './first-frame';
import { flood } from './flood';
import { networkBusy } from './network-busy';
import { agentSlowdown } from './slowdown';
import { fmt, median, pause, PLAIN_ARGS, REPS, withRecorder } from './support';
import { soak } from './soak';
import { triageBench } from './triage';

/** Section 1 runs this long per source (the measure: 30 s of a busy page). */
const RATE_SECONDS = 30;
const SECTIONS = new Set((process.env.BENCH_SECTIONS ?? '1,2,3,4,5,6').split(',').map((s) => s.trim()));

/** An agent clicking around the shop while the page animates. */
async function busyAgent(page: Page, site: SiteServer, seconds: number): Promise<void> {
  await page.goto(`${site.origin}/index.html`);
  const end = Date.now() + seconds * 1000;
  let i = 0;
  while (Date.now() < end) {
    await page.click(['[data-testid="add-shoes"]', '[data-testid="add-jacket"]', '[data-testid="add-bottle"]'][i++ % 3]!);
    await pause(250);
  }
}

async function captureRates(site: SiteServer): Promise<void> {
  console.log(`\n1. Capture rate on a busy page (animation + an agent clicking every 250 ms), 1280×720, ${RATE_SECONDS} s each;`);
  console.log('   frames stored per second over the whole run, counted in a bundle holding all of it');
  for (const [label, settings] of [
    ['visibleTab', { captureSource: 'visibleTab' }],
    ['screencast, fps 8', { captureSource: 'screencast', fps: 8 }],
    ['screencast, fps 30', { captureSource: 'screencast', fps: 30 }],
    // A click every 250 ms is no burst (actions < 150 ms apart): the default screencasts too.
    ['auto (default), fps 8', { captureSource: 'auto', fps: 8 }],
  ] as const) {
    await withRecorder({ ...settings, bufferSeconds: RATE_SECONDS + 5 }, async (b, page) => {
      await busyAgent(page, site, 2); // warm up: debugger attached, screencast running
      const before = await afr(b.worker, 'status');
      const start = Date.now();
      await busyAgent(page, site, RATE_SECONDS);
      const end = Date.now();
      const after = await afr(b.worker, 'status');
      const bundle = await exportBundle(b.worker, await afr(b.worker, 'fail', { reason: 'bench' }));
      const stored = bundle.manifest.frames.filter((f) => f.ts >= start && f.ts <= end).length;
      console.log(
        `   ${label.padEnd(28)} ${(stored / ((end - start) / 1000)).toFixed(2)} frames/s; quota errors ${after.quotaErrors - before.quotaErrors}, capture errors ${after.captureErrors - before.captureErrors}, dropped (regions unknown) ${after.droppedFrames - before.droppedFrames}`,
      );
    });
  }
}

async function failureToBundle(site: SiteServer): Promise<void> {
  console.log('\n2. Failure signal → bundle stored (afr.fail resolves when it is), 15 s window at 1280×720, after-failure tail off');
  for (const [label, settings] of [
    ['visibleTab (~27 frames)', { captureSource: 'visibleTab' }],
    ['screencast 8 fps (~120 frames)', { captureSource: 'screencast', fps: 8 }],
  ] as const) {
    await withRecorder({ bufferSeconds: 15, ...settings }, async (b, page) => {
      await page.goto(`${site.origin}/errors.html`); // spinner: the screencast repaints all the time
      await pause(16_000);
      const total: number[] = [];
      const clip: number[] = [];
      const readFrames: number[] = [];
      const zipAndStore: number[] = [];
      const sizes: number[] = [];
      const frames: number[] = [];
      const encoders = new Set<string>();
      for (let i = 0; i < REPS + 2; i++) {
        const t = performance.now();
        const id = await afr(b.worker, 'fail', { reason: 'bench' });
        total.push(performance.now() - t);
        const bundle = await exportBundle(b.worker, id);
        const timings = bundle.diagnostics!.timings_ms;
        clip.push(timings.clip);
        readFrames.push(timings.frames);
        zipAndStore.push(total.at(-1)! - timings.before_zip);
        sizes.push(bundle.zip.byteLength / 1024);
        frames.push(bundle.manifest.frame_count);
        if (bundle.manifest.clip) encoders.add(bundle.manifest.clip.encoder);
        await afr(b.worker, 'deleteBundle', id);
        await pause(1_000);
      }
      console.log(`   ${label}`);
      console.log(`     frames per bundle        ${fmt(frames, 'frames')}`);
      console.log(`     signal → bundle stored   ${fmt(total, 'ms')}`);
      console.log(`     reading the frames       ${fmt(readFrames, 'ms')}`);
      console.log(`     clip encoding            ${fmt(clip, 'ms')} (${[...encoders].join(', ')})`);
      console.log(`     zip, store (and return)  ${fmt(zipAndStore, 'ms')}`);
      console.log(`     bundle size              ${fmt(sizes, 'KiB')}`);
    });
  }
}

/** Milliseconds from the response's end to DOMContentLoaded, for each of `loads` loads of the checkout page. */
async function domContentLoadedDelays(page: Page, site: SiteServer, loads: number): Promise<number[]> {
  const delays: number[] = [];
  // Not counted: the browser's start-up work, the first load's caches.
  await page.goto(`${site.origin}/checkout.html`);
  await pause(1_000);
  for (let i = 0; i < loads; i++) {
    await page.goto(`${site.origin}/checkout.html?load=${i}`);
    delays.push(
      await page.evaluate(() => {
        const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
        return nav.domContentLoadedEventStart - nav.responseEnd;
      }),
    );
  }
  return delays;
}

async function pageLoads(site: SiteServer): Promise<void> {
  const loads = 30;
  console.log(`\n5. Page loads: the checkout page's response end → DOMContentLoaded, ${loads} loads per run, ${REPS} runs each (interleaved)`);
  const runs: Record<string, number[]> = { 'extension off': [], 'recorder default (auto)': [], 'recorder metadata only': [] };
  for (let rep = 0; rep < REPS; rep++) {
    const profile = mkdtempSync(path.join(os.tmpdir(), 'afr-bench-'));
    const context = await chromium.launchPersistentContext(profile, { executablePath: chromiumPath(), headless: true, args: PLAIN_ARGS });
    try {
      runs['extension off']!.push(...(await domContentLoadedDelays(context.pages()[0] ?? (await context.newPage()), site, loads)));
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    }
    for (const [name, settings] of [
      ['recorder default (auto)', {}],
      ['recorder metadata only', { captureLevel: 'metadata' }],
    ] as const) {
      await withRecorder(settings, async (_b, page) => void runs[name]!.push(...(await domContentLoadedDelays(page, site, loads))));
    }
  }
  const off = median(runs['extension off']!);
  for (const [name, delays] of Object.entries(runs)) {
    console.log(`   ${name.padEnd(26)} ${fmt(delays, 'ms', 1)}; ${(median(delays) - off).toFixed(1)} ms later than off`);
  }
}

async function main(): Promise<void> {
  const site = await startSiteServer();
  console.log(`Agent Flight Recorder benchmark — ${os.cpus().length} CPUs, load average ${os.loadavg()[0]!.toFixed(2)}`);
  try {
    if (SECTIONS.has('1')) await captureRates(site);
    if (SECTIONS.has('2')) await failureToBundle(site);
    if (SECTIONS.has('3')) await agentSlowdown(site);
    if (SECTIONS.has('4')) await soak(site);
    if (SECTIONS.has('5')) await pageLoads(site);
    if (SECTIONS.has('6')) await firstFrame(site);
    if (SECTIONS.has('7')) await flood(site);
    if (SECTIONS.has('8')) await triageBench();
    if (SECTIONS.has('9')) await networkBusy();
    console.log(`\nload average at the end ${os.loadavg()[0]!.toFixed(2)}; encoder-only figures: npm run bench:clip`);
  } finally {
    await site.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

/**
 * `npx tsx bench/timeline.ts`: what the DOM timeline (`src/timeline/page/`) costs on the page's main
 * thread, in real Chromium (`/usr/bin/chromium` or CHROME_PATH), printed, never asserted:
 *   - the full snapshot that starts a document's timeline, beside `takeSnapshot` (5,000-node cap
 *     and cap lifted), on generated pages of ~1,000 and ~10,000 elements (forms, tables, lists,
 *     shadow roots), interleaved, after 3 rounds that warm every contender up; each round masks with a
 *     fresh masker, as a document's first snapshot does;
 *   - the cost per step (mutations since the last checkpoint processed + the checkpoint) on a
 *     ~10,000-element page where a step changes fewer than 50 nodes: median, p95, bytes stored;
 *   - long tasks (`PerformanceObserver` `longtask`) while recording a ~50,000-element page, the
 *     first snapshot taken in one task and in slices (`startTimelineInSlices`);
 *   - shipping that page's base as the content script does (sliced start, then posting, each message
 *     JSON-serialised as a port does): in one message, or in parts, one per task; the longest post
 *     and the long tasks from the start to the last part.
 * rrweb-snapshot 2.2.2's `snapshot()` (a dev dependency of the bench only) runs beside the timeline's
 * first snapshot on the same pages. BENCH_ROUNDS (default 15), BENCH_STEPS (default 300) and BENCH_ONLY tune it.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { chromiumPath } from '../e2e/support/launch';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const STEPS = Number(process.env.BENCH_STEPS ?? 300);
/** `BENCH_ONLY=ship` (or `full`, `step`, `long`, comma-separated): only those parts. */
const ONLY = new Set((process.env.BENCH_ONLY ?? 'full,step,long,ship').split(','));

const bundled = await build({ entryPoints: [path.join(HERE, 'timeline-page.ts')], bundle: true, format: 'iife', write: false, target: 'es2022' });
const script = bundled.outputFiles[0]!.text;

const browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: ['--no-sandbox'] });
try {
  const page = await browser.newPage();
  await page.setContent('<!doctype html><html><head><title>Timeline bench</title></head><body></body></html>');
  await page.addScriptTag({ content: script });
  const run = (expr: string) => page.evaluate(expr);
  console.log(`DOM timeline bench: Chromium ${browser.version()}, ${ROUNDS} rounds, ${STEPS} steps`);
  for (const n of ONLY.has('full') ? [1000, 10000] : []) {
    console.log('full snapshot', JSON.stringify(await run(`__timelineBench.fullSnapshot(${n}, ${ROUNDS})`)));
  }
  if (ONLY.has('step')) {
    console.log('per step     ', JSON.stringify(await run(`__timelineBench.perStep(10000, ${STEPS})`)));
    console.log('wired step   ', JSON.stringify(await run(`__timelineBench.wiredStep(10000, ${STEPS})`)));
  }
  for (const sliced of ONLY.has('long') ? [false, true] : []) {
    console.log('long tasks   ', JSON.stringify(await run(`__timelineBench.longTasks(50000, 30, ${sliced})`)));
  }
  // Shipping the base as the content script does, interleaved: one message, then in parts (one per task).
  for (let r = 0; r < (ONLY.has('ship') ? Math.min(ROUNDS, 5) : 0); r++) {
    for (const inParts of [false, true]) {
      console.log('ship base    ', JSON.stringify(await run(`__timelineBench.shipping(50000, ${inParts})`)));
    }
  }
} finally {
  await browser.close();
}

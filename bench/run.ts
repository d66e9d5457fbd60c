/**
 * `npm run bench`: figures for the recorder, printed, never asserted (these machines are shared and
 * noisy: read medians and ratios). Sections:
 *   1. frames per second per capture source on a busy page (animation + an agent clicking);
 *   2. failure signal → bundle stored, clip encoding time and bundle size, for full windows;
 *   3. agent slowdown: the same ≥ 200-action workload with the extension off, on in each capture
 *      mode, and with Playwright's own tracing, as wall-time ratios to "off";
 *   4. a soak: ring bytes and IndexedDB usage over a long run at the default 8 fps.
 * BENCH_REPS (default 3), BENCH_SOAK_SECONDS (default 60; the full check is 600), BENCH_SECTIONS
 * (e.g. "1,2") tune it.
 */
import { chromium } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromiumPath, launchWithRecorder, type RecorderBrowser } from '../e2e/support/launch';
import { startSiteServer, type SiteServer } from '../e2e/support/site-server';
import { afr } from '../e2e/support/afr';
import { exportBundle } from '../e2e/support/bundle';
import type { Page } from 'playwright-core';

const REPS = Number(process.env.BENCH_REPS ?? 3);
const SOAK_SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 60);
const SECTIONS = new Set((process.env.BENCH_SECTIONS ?? '1,2,3,4').split(',').map((s) => s.trim()));

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};
const fmt = (xs: number[], unit: string, digits = 0) =>
  `median ${median(xs).toFixed(digits)} ${unit} (min ${Math.min(...xs).toFixed(digits)}, max ${Math.max(...xs).toFixed(digits)}, n=${xs.length})`;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function withRecorder<T>(settings: Record<string, unknown>, fn: (b: RecorderBrowser, page: Page) => Promise<T>): Promise<T> {
  const browser = await launchWithRecorder();
  try {
    await afr(browser.worker, 'configure', { autoDownload: false, failureCooldownMs: 0, postFailureSeconds: 0, ...settings } as never);
    const page = browser.context.pages()[0] ?? (await browser.context.newPage());
    await page.setViewportSize({ width: 1280, height: 720 });
    return await fn(browser, page);
  } finally {
    await browser.close();
  }
}

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
  console.log('\n1. Capture rate on a busy page (animation + an agent clicking every 250 ms), 1280×720, 20 s each;');
  console.log('   frames stored per second over the last 15 s, counted in a bundle');
  for (const [label, settings] of [
    ['visibleTab', { captureSource: 'visibleTab' }],
    ['screencast, fps 8 (default)', { captureSource: 'auto', fps: 8 }],
    ['screencast, fps 30', { captureSource: 'auto', fps: 30 }],
  ] as const) {
    await withRecorder({ ...settings, bufferSeconds: 15 }, async (b, page) => {
      await busyAgent(page, site, 2); // warm up: debugger attached, screencast running
      const before = await afr(b.worker, 'status');
      await busyAgent(page, site, 20);
      const after = await afr(b.worker, 'status');
      const end = Date.now();
      const bundle = await exportBundle(b.worker, await afr(b.worker, 'fail', { reason: 'bench' }));
      const recent = bundle.manifest.frames.filter((f) => f.ts > end - 15_000 && f.ts <= end).length;
      console.log(
        `   ${label.padEnd(28)} ${(recent / 15).toFixed(2)} frames/s; quota errors ${after.quotaErrors - before.quotaErrors}, capture errors ${after.captureErrors - before.captureErrors}, dropped (regions unknown) ${after.droppedFrames - before.droppedFrames}`,
      );
    });
  }
}

async function failureToBundle(site: SiteServer): Promise<void> {
  console.log('\n2. Failure signal → bundle stored (afr.fail resolves when it is), 15 s window at 1280×720, after-failure tail off');
  for (const [label, settings] of [
    ['visibleTab (~27 frames)', { captureSource: 'visibleTab' }],
    ['screencast 8 fps (~120 frames)', { captureSource: 'auto', fps: 8 }],
  ] as const) {
    await withRecorder({ bufferSeconds: 15, ...settings }, async (b, page) => {
      await page.goto(`${site.origin}/errors.html`); // spinner: the screencast repaints all the time
      await pause(16_000);
      const total: number[] = [];
      const clip: number[] = [];
      const sizes: number[] = [];
      const frames: number[] = [];
      const encoders = new Set<string>();
      for (let i = 0; i < REPS + 2; i++) {
        const t = performance.now();
        const id = await afr(b.worker, 'fail', { reason: 'bench' });
        total.push(performance.now() - t);
        const bundle = await exportBundle(b.worker, id);
        clip.push(bundle.diagnostics!.timings_ms.clip);
        sizes.push(bundle.zip.byteLength / 1024);
        frames.push(bundle.manifest.frame_count);
        if (bundle.manifest.clip) encoders.add(bundle.manifest.clip.encoder);
        await afr(b.worker, 'deleteBundle', id);
        await pause(1_000);
      }
      console.log(`   ${label}`);
      console.log(`     frames per bundle        ${fmt(frames, 'frames')}`);
      console.log(`     signal → bundle stored   ${fmt(total, 'ms')}`);
      console.log(`     clip encoding            ${fmt(clip, 'ms')} (${[...encoders].join(', ')})`);
      console.log(`     bundle size              ${fmt(sizes, 'KiB')}`);
    });
  }
}

/** ≥ 200 actions on a form-heavy page: fills, clicks, key presses. */
async function formWorkload(page: Page, site: SiteServer): Promise<number> {
  await page.goto(`${site.origin}/checkout.html`);
  let actions = 0;
  const t = performance.now();
  for (let round = 0; round < 25; round++) {
    await page.fill('#full-name', `Jane Doe ${round}`);
    await page.fill('#email', `jane${round}@example.com`);
    await page.fill('#phone', `+1 415 555 01${String(round).padStart(2, '0')}`);
    await page.fill('#card-number', '4111 1111 1111 1111');
    await page.fill('#card-cvc', '123');
    await page.fill('#notes', `round ${round}`);
    await page.press('#notes', 'Tab');
    await page.click('h1');
    actions += 8;
  }
  const ms = performance.now() - t;
  if (actions < 200) throw new Error('workload too small');
  return ms;
}

async function agentSlowdown(site: SiteServer): Promise<void> {
  console.log(`\n3. Agent slowdown: 200 actions on the checkout form, wall time, ${REPS} runs each`);
  const results: Record<string, number[]> = {};
  const plain = async (tracing: boolean) => {
    const profile = mkdtempSync(path.join(os.tmpdir(), 'afr-bench-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: chromiumPath(),
      headless: true,
      viewport: { width: 1280, height: 720 },
      args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-gpu'],
    });
    try {
      if (tracing) await context.tracing.start({ screenshots: true, snapshots: true });
      const page = context.pages()[0] ?? (await context.newPage());
      const ms = await formWorkload(page, site);
      if (tracing) await context.tracing.stop({ path: path.join(profile, 'trace.zip') });
      return ms;
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    }
  };
  for (let rep = 0; rep < REPS; rep++) {
    (results['extension off'] ??= []).push(await plain(false));
    for (const source of ['auto', 'visibleTab'] as const) {
      const ms = await withRecorder({ captureSource: source }, async (_b, page) => {
        await page.goto(`${site.origin}/index.html`);
        await pause(1_000);
        return formWorkload(page, site);
      });
      (results[`recorder ${source === 'auto' ? 'auto (screencast)' : 'visibleTab'}`] ??= []).push(ms);
    }
    (results['Playwright tracing'] ??= []).push(await plain(true));
  }
  const off = median(results['extension off']!);
  for (const [name, xs] of Object.entries(results)) {
    console.log(`   ${name.padEnd(28)} ${fmt(xs, 'ms')}  ratio to off ${(median(xs) / off).toFixed(3)}`);
  }
}

async function soak(site: SiteServer): Promise<void> {
  console.log(`\n4. Soak: ${SOAK_SECONDS} s at 8 fps on an animated page (cap 64 MiB); ring bytes and IndexedDB usage every 10 s`);
  await withRecorder({ captureSource: 'auto', fps: 8 }, async (b, page) => {
    await page.goto(`${site.origin}/errors.html`);
    const rows: string[] = [];
    let peak = 0;
    for (let s = 0; s <= SOAK_SECONDS; s += 10) {
      const status = await afr(b.worker, 'status');
      const usage = await b.worker.evaluate(async () => (await navigator.storage.estimate()).usage ?? 0);
      peak = Math.max(peak, usage);
      rows.push(`${s}s: ring ${(status.bytes / 1048576).toFixed(1)} MiB / ${status.frames} frames, IndexedDB ${(usage / 1048576).toFixed(1)} MiB`);
      if (s < SOAK_SECONDS) await pause(10_000);
    }
    for (const row of rows) console.log(`   ${row}`);
    console.log(`   peak IndexedDB usage ${(peak / 1048576).toFixed(1)} MiB`);
  });
}

async function main(): Promise<void> {
  const site = await startSiteServer();
  console.log(`Agent Flight Recorder benchmark — ${os.cpus().length} CPUs, load average ${os.loadavg()[0]!.toFixed(2)}`);
  try {
    if (SECTIONS.has('1')) await captureRates(site);
    if (SECTIONS.has('2')) await failureToBundle(site);
    if (SECTIONS.has('3')) await agentSlowdown(site);
    if (SECTIONS.has('4')) await soak(site);
    console.log(`\nload average at the end ${os.loadavg()[0]!.toFixed(2)}; encoder-only figures: npm run bench:clip`);
  } finally {
    await site.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

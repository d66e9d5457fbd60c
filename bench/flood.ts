import type { SiteServer } from '../e2e/support/site-server';
import type { RecorderBrowser } from '../e2e/support/launch';
import { afr } from '../e2e/support/afr';
import { exportBundle } from '../e2e/support/bundle';
import { cpuSpent, processCpu } from './process-cpu';
import { fmt, pause, withRecorder } from './support';

/** How long each page floods while the agent's calls are timed (more when the calls are slower). */
const FLOOD_SECONDS = Number(process.env.BENCH_FLOOD_SECONDS ?? 20);
/** A call that has not answered after this long is counted at this long (and the run goes on). */
const CALL_TIMEOUT_MS = 120_000;
/**
 * The builds measured, interleaved mode by mode: `BENCH_FLOOD_BUILDS="before=/tmp/a,after=/tmp/b"`
 * (unpacked builds of two commits); default: the one in `.output/chrome-mv3`.
 */
const BUILDS: readonly (readonly [label: string, dir: string | undefined])[] = process.env.BENCH_FLOOD_BUILDS
  ? process.env.BENCH_FLOOD_BUILDS.split(',').map((b) => {
      const [label, dir] = b.split('=');
      return [label!, dir] as const;
    })
  : [['', undefined]];
/** Settings of the recorder while the page floods, as JSON (`{"captureLevel":"screenshots"}`: no DOM timeline, for reference). */
const SETTINGS = JSON.parse(process.env.BENCH_FLOOD_SETTINGS ?? '{}') as Record<string, unknown>;
/** Kinds of process (`processCpu`): the extension's (service worker, offscreen document) and the pages'. */
const EXTENSION = 'extension (service worker, offscreen)';
const RENDERERS = 'page renderers';

/** Milliseconds `call` took to answer (`CALL_TIMEOUT_MS` when it did not). */
async function answerTime(call: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([call().catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, CALL_TIMEOUT_MS)))]);
  clearTimeout(timer);
  return performance.now() - started;
}

/** `afr.fail()`'s answer time, and where the bundle's time went (its diagnostics' timings). */
async function timedFail(b: RecorderBrowser, into: number[], parts: string[]): Promise<void> {
  let id: string | undefined;
  into.push(await answerTime(async () => (id = await afr(b.worker, 'fail', { reason: 'bench: flood' }))));
  if (!id) return;
  // A bundle of capture level `metadata` has no diagnostics.
  const t = await exportBundle(b.worker, id).then((bundle) => bundle.diagnostics?.timings_ms, () => undefined);
  if (t) parts.push(`snapshot ${t.snapshot.toFixed(0)}, frames ${t.frames.toFixed(0)}, clip ${t.clip.toFixed(0)}, before zip ${t.before_zip.toFixed(0)}`);
  await afr(b.worker, 'deleteBundle', id);
}

/** What the recorder reports it cut of the flood: DOM timeline messages over the tab's quota. */
async function floodReport(b: RecorderBrowser): Promise<string> {
  const { pageLimits } = await afr(b.worker, 'status');
  return `${pageLimits.timelineDropped ?? 0} DOM timeline messages dropped over the tab's quota`;
}

/**
 * Section 7: a page flooding its DOM (`e2e/site/flood.html`: 200 nodes rewritten with 200 KB values
 * every tick, in an attribute the recorder keeps or as text). While it floods: how long the agent's
 * `afr.status()` and `afr.fail()` take to answer (through the service worker, as an agent calls them),
 * and the CPU the extension's process (service worker, offscreen document) and the page renderers
 * spend, per second of flood. Before it: the same calls on a quiet page.
 */
export async function flood(site: SiteServer): Promise<void> {
  console.log(`\n7. A page flooding its DOM (200 nodes × 200 KB every tick), ${FLOOD_SECONDS} s each: the agent's calls and who spends the CPU`);
  for (const mode of (process.env.BENCH_FLOOD_MODES ?? 'attributes,text,nodes').split(',')) {
    for (const [build, dir] of BUILDS) await floodRun(site, mode, build, dir);
  }
}

/** One build, one kind of flood (see `flood`). */
async function floodRun(site: SiteServer, mode: string, build: string, dir: string | undefined): Promise<void> {
  await withRecorder(
    SETTINGS,
    async (b, page) => {
      await page.goto(`${site.origin}/index.html`);
      await pause(2_000);
      const quiet: number[] = [];
      for (let i = 0; i < 5; i++) quiet.push(await answerTime(() => afr(b.worker, 'status')));
      const quietFail: number[] = [];
      const quietParts: string[] = [];
      await timedFail(b, quietFail, quietParts);

      await page.goto(`${site.origin}/flood.html?mode=${mode}`);
      await pause(2_000);
      const cpuBefore = processCpu(b.profile);
      const started = performance.now();
      const status: number[] = [];
      const fail: number[] = [];
      const failParts: string[] = [];
      const end = Date.now() + FLOOD_SECONDS * 1000;
      while (Date.now() < end || status.length < 3) {
        status.push(await answerTime(() => afr(b.worker, 'status')));
        if (status.length % 4 === 0 && fail.length < 2) await timedFail(b, fail, failParts);
        await pause(250);
      }
      if (!fail.length) await timedFail(b, fail, failParts);
      const seconds = (performance.now() - started) / 1000;
      const cpu = cpuSpent(cpuBefore, processCpu(b.profile));
      const ticks = await Promise.race([page.evaluate(() => (window as unknown as { floodTicks: number }).floodTicks), pause(10_000).then(() => NaN)]);
      await page.evaluate(() => (window as unknown as { stopFlood(): void }).stopFlood()).catch(() => undefined);
      const perSecond = (kind: string) => `${(((cpu[kind] ?? 0) / seconds) * 100).toFixed(0)} %`;
      console.log(`   ${mode} flood${build ? `, ${build}` : ''} (${ticks} ticks in ${seconds.toFixed(0)} s: ${(ticks / seconds).toFixed(1)} a second)`);
      console.log(`     status(), quiet page     ${fmt(quiet, 'ms')}`);
      console.log(`     status(), flooding       ${fmt(status, 'ms')}`);
      console.log(`     fail(), quiet page       ${fmt(quietFail, 'ms')} (${quietParts.join('; ')})`);
      console.log(`     fail(), flooding         ${fmt(fail, 'ms')} (${failParts.join('; ')})`);
      console.log(`     CPU per second of flood  extension process ${perSecond(EXTENSION)}, page renderers ${perSecond(RENDERERS)}, browser ${perSecond('browser')}`);
      console.log(`     cut by the recorder      ${await floodReport(b)}`);
    },
    dir,
  );
}

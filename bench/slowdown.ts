/**
 * Section 3 of `npm run bench`: how much the recorder slows an agent down. The same ≥ 200-action
 * workload runs with the extension off (not loaded; twice: the second shows the noise), loaded but
 * paused, on in each capture mode, and under Playwright's own tracing, in interleaved rounds; once as
 * fast as Playwright goes and once with a short pause between actions. It prints each mode's wall time
 * and CPU seconds by Chromium process, then the headline: the default recorder (`auto`) against "off"
 * and against Playwright tracing, as a table.
 */
import { chromium, type Page } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afr } from '../e2e/support/afr';
import { chromiumPath, type RecorderBrowser } from '../e2e/support/launch';
import type { SiteServer } from '../e2e/support/site-server';
import { cpuSpent, processCpu, type ProcessCpu } from './process-cpu';
import { fmt, median, pause, PLAIN_ARGS, quantile, REPS, withRecorder } from './support';

const THINK_MS = (process.env.BENCH_THINK_MS ?? '0,50').split(',').map(Number);
const MODE_WORDS = process.env.BENCH_MODES?.split(',').map((s) => s.trim());

const OFF = 'extension off';
const AUTO = 'recorder default (auto)';
const TRACING = 'Playwright tracing';
const PAUSED = 'recorder paused';
/** The modes the headline compares: they run whatever BENCH_MODES says. */
const HEADLINE = [OFF, AUTO, TRACING];
/** The slowdown the recorder's default may cost, by pause between actions (ms): the promise of docs/performance.md. */
const TARGETS = new Map([
  [50, 1.03],
  [0, 1.1],
]);

/**
 * ≥ 200 actions on a form-heavy page (`npm run bench:upload` runs it too): fills, clicks, key
 * presses; `thinkMs` is a pause between
 * actions (0: a script that acts as fast as Playwright can).
 */
export async function formWorkload(page: Page, site: SiteServer, thinkMs: number): Promise<number> {
  await page.goto(`${site.origin}/checkout.html`);
  let actions = 0;
  const act = async (action: Promise<unknown>) => {
    await action;
    actions++;
    if (thinkMs > 0) await pause(thinkMs);
  };
  const t = performance.now();
  for (let round = 0; round < 25; round++) {
    await act(page.fill('#full-name', `Jane Doe ${round}`));
    await act(page.fill('#email', `jane${round}@example.com`));
    await act(page.fill('#phone', `+1 415 555 01${String(round).padStart(2, '0')}`));
    await act(page.fill('#card-number', '4111 1111 1111 1111'));
    await act(page.fill('#card-cvc', '123'));
    await act(page.fill('#notes', `round ${round}`));
    await act(page.press('#notes', 'Tab'));
    await act(page.click('h1'));
  }
  const ms = performance.now() - t;
  if (actions < 200) throw new Error('workload too small');
  return ms;
}

interface Run {
  ms: number;
  cpu: ProcessCpu;
}

/** Runs the workload in a Chromium without the extension, optionally with Playwright's tracing on. */
async function plainRun(site: SiteServer, thinkMs: number, tracing: boolean): Promise<Run> {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'afr-bench-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath(),
    headless: true,
    viewport: { width: 1280, height: 720 },
    args: PLAIN_ARGS,
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${site.origin}/index.html`);
    await pause(1_000); // as the recorder's runs do: the browser's start-up work is over
    if (tracing) await context.tracing.start({ screenshots: true, snapshots: true });
    const before = processCpu(profile);
    const ms = await formWorkload(page, site, thinkMs);
    const cpu = cpuSpent(before, processCpu(profile));
    if (tracing) await context.tracing.stop({ path: path.join(profile, 'trace.zip') });
    return { ms, cpu };
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

/** Pauses the recorder as an operator does: the popup's Pause button (in a popup window, as Chrome shows it). */
async function pauseFromPopup(b: RecorderBrowser): Promise<void> {
  const opened = b.context.waitForEvent('page', (p) => p.url().endsWith('/popup.html'));
  await b.worker.evaluate(async () => {
    await chrome.windows.create({ url: chrome.runtime.getURL('popup.html'), type: 'popup', width: 420, height: 760 });
  });
  const popup = await opened;
  await popup.getByTestId('pause-toggle').click();
  await popup.getByTestId('state').filter({ hasText: 'Paused' }).waitFor();
  await popup.close();
  if (!(await afr(b.worker, 'status')).paused) throw new Error('the recorder did not pause');
}

async function recorderRun(site: SiteServer, thinkMs: number, settings: Record<string, unknown>, paused = false): Promise<Run> {
  return withRecorder(settings, async (b, page) => {
    await page.goto(`${site.origin}/index.html`);
    if (paused) await pauseFromPopup(b);
    await pause(1_000); // the debugger session is attached and the screencast started
    const before = processCpu(b.profile);
    const ms = await formWorkload(page, site, thinkMs);
    return { ms, cpu: cpuSpent(before, processCpu(b.profile)) };
  });
}

const CPU_KINDS: [string, (kind: string) => boolean][] = [
  ['browser', (k) => k === 'browser'],
  ['page', (k) => k === 'page renderers'],
  ['extension', (k) => k.startsWith('extension')],
  ['gpu', (k) => k === 'gpu-process'],
];

/** `a` against `b`: the ratio of the medians, and the median of each round's own ratio (a spell of load that spans a round cancels out). */
function compare(runs: Map<string, Run[]>, a: string, b: string): { ofMedians: number; paired: number } | null {
  const as = runs.get(a);
  const bs = runs.get(b);
  if (!as?.length || !bs?.length) return null;
  const ofMedians = median(as.map((r) => r.ms)) / median(bs.map((r) => r.ms));
  const paired = median(as.map((r, rep) => r.ms / bs[rep]!.ms));
  return { ofMedians, paired };
}

interface Pass {
  thinkMs: number;
  runs: Map<string, Run[]>;
}

/** The headline as a markdown table: one row per pause between actions. */
function printHeadline(passes: readonly Pass[]): void {
  const ratio = (pass: Pass, a: string, b: string) => {
    const r = compare(pass.runs, a, b);
    return r ? `${r.ofMedians.toFixed(3)} / ${r.paired.toFixed(3)}` : '—';
  };
  const ms = (pass: Pass, mode: string) => {
    const rs = pass.runs.get(mode);
    return rs?.length ? `${Math.round(median(rs.map((r) => r.ms)))}` : '—';
  };
  const target = (pass: Pass) => {
    const limit = TARGETS.get(pass.thinkMs);
    const r = compare(pass.runs, AUTO, OFF);
    if (limit === undefined || !r) return '—';
    // Two identical runs further apart than the margin itself: the verdict would be the machine's, not ours.
    const noise = compare(pass.runs, `${OFF}, again`, OFF);
    if (noise && Math.abs(noise.ofMedians - 1) > limit - 1) return `≤ ${limit.toFixed(2)}: inconclusive (noise)`;
    return `≤ ${limit.toFixed(2)}: ${r.ofMedians <= limit ? 'met' : 'not met'}`;
  };
  console.log(`\n   The recorder's default (auto) against "off" and against Playwright tracing, ${REPS} interleaved rounds;`);
  console.log('   wall time medians in ms; ratios as "of the medians / median of each round\'s own ratio":');
  const header = ['between actions', 'off', 'paused', 'auto', 'tracing', 'auto / off', 'auto / paused', 'auto / tracing', 'tracing / off', 'noise (off again / off)', 'target (auto / off)'];
  const rows = passes.map((pass) => [
    pass.thinkMs ? `${pass.thinkMs} ms` : 'none',
    ms(pass, OFF),
    ms(pass, PAUSED),
    ms(pass, AUTO),
    ms(pass, TRACING),
    ratio(pass, AUTO, OFF),
    ratio(pass, AUTO, PAUSED),
    ratio(pass, AUTO, TRACING),
    ratio(pass, TRACING, OFF),
    ratio(pass, `${OFF}, again`, OFF),
    target(pass),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => `   | ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(line(header));
  console.log(`   |${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const row of rows) console.log(line(row));
}

/** Section 3: every mode's figures for each pause between actions, then the headline table. */
export async function agentSlowdown(site: SiteServer): Promise<void> {
  const passes: Pass[] = [];
  for (const thinkMs of THINK_MS) {
    console.log(
      `\n3${thinkMs ? 'b' : 'a'}. Agent slowdown: 200 actions on the checkout form${thinkMs ? `, ${thinkMs} ms between actions` : ' as fast as Playwright goes'}; wall time and CPU seconds by process, ${REPS} runs each (medians)`,
    );
    const allModes: [string, () => Promise<Run>][] = [
      [OFF, () => plainRun(site, thinkMs, false)],
      // The same as "off": its ratio shows how far apart two identical runs fall on this machine now.
      [`${OFF}, again`, () => plainRun(site, thinkMs, false)],
      // Loaded, paused from the popup: the content script and the worker are there, nothing is recorded.
      [PAUSED, () => recorderRun(site, thinkMs, {}, true)],
      [AUTO, () => recorderRun(site, thinkMs, {})],
      ['recorder screencast', () => recorderRun(site, thinkMs, { captureSource: 'screencast' })],
      ['recorder visibleTab', () => recorderRun(site, thinkMs, { captureSource: 'visibleTab' })],
      ['recorder metadata only', () => recorderRun(site, thinkMs, { captureLevel: 'metadata' })],
      [TRACING, () => plainRun(site, thinkMs, true)],
    ];
    const modes = allModes.filter(([name]) => HEADLINE.includes(name) || !MODE_WORDS || MODE_WORDS.some((w) => name.includes(w)));
    const runs = new Map<string, Run[]>(modes.map(([name]) => [name, []]));
    // Interleaved, so that a spell of load on the shared machine hits every mode alike, and rotated,
    // so that no mode always runs right after the same other one (a browser still shutting down).
    for (let rep = 0; rep < REPS; rep++) {
      for (let i = 0; i < modes.length; i++) {
        const [name, run] = modes[(i + rep) % modes.length]!;
        runs.get(name)!.push(await run());
      }
    }
    const offRuns = runs.get(OFF)!;
    const off = median(offRuns.map((r) => r.ms));
    for (const [name, rs] of runs) {
      const cpu = CPU_KINDS.map(([label, match]) => {
        const secs = median(rs.map((r) => Object.entries(r.cpu).reduce((sum, [k, v]) => sum + (match(k) ? v : 0), 0)));
        return `${label} ${secs.toFixed(2)}`;
      }).join(', ');
      const ms = rs.map((r) => r.ms);
      const paired = ms.map((m, rep) => m / offRuns[rep]!.ms);
      const spread = `paired ${median(paired).toFixed(3)}, middle half ${quantile(paired, 0.25).toFixed(3)}–${quantile(paired, 0.75).toFixed(3)}`;
      console.log(`   ${name.padEnd(26)} ${fmt(ms, 'ms')}  ratio to off ${(median(ms) / off).toFixed(3)} (${spread}); CPU s: ${cpu}`);
    }
    passes.push({ thinkMs, runs });
  }
  printHeadline(passes);
}

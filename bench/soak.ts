/**
 * Section 4 of `npm run bench`: a soak. `BENCH_SOAK=busy` (the default) has a scripted agent act on the
 * order desk every 250 ms (typing, including an email and a password, clicks that add and remove table
 * rows, agent steps and marks through `afr`, a fresh document every ~10 s) with the DOM timeline on (the
 * default capture level `full`); `BENCH_SOAK=idle` sits on an animated page with no agent. Frames at
 * 8 fps in both. Every sample: ring bytes and frames, IndexedDB usage, the service worker's JS heap after
 * a GC, the DOM timeline kept and written (`status().timeline`), steps kept; at the end, the timeline's
 * bytes written per minute and per step, and whether IndexedDB and the heap stay flat.
 */
import { afr } from '../e2e/support/afr';
import { launchWithRecorder } from '../e2e/support/launch';
import type { SiteServer } from '../e2e/support/site-server';
import { startSoakAgent, SOAK_ACTION_MS, type SoakAgent } from './soak-agent';
import { median, pause } from './support';
import { connectWorkerHeap } from './worker-heap';

const SOAK_SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 60);
const SOAK_MODE = process.env.BENCH_SOAK === 'idle' ? 'idle' : 'busy';
const SOAK_SAMPLE_SECONDS = SOAK_SECONDS >= 300 ? 30 : 10;
const SOAK_DEBUGGING_PORT = 9347;
/** The busy agent's first actions before the first sample: the debugger attached, the timeline started. */
const WARM_UP_MS = 3_000;
/** A second half's median more than this much above the first half's reads as growing, not flat. */
const GROWTH_MARGIN = 1.25;
/**
 * The halves compared start here: by then the frame ring's window (15 s, the 2 s after-failure tail)
 * and the timeline's (15 s, and 10 s more before old changes are folded) are full, so filling them
 * does not read as growth.
 */
const STEADY_FROM_S = 30;

interface Sample {
  s: number;
  ring: number;
  frames: number;
  idb: number;
  heap: number;
  steps: number;
  /** `status().timeline`: kept now, and accepted since the worker started. */
  keptBytes: number;
  documents: number;
  writtenBytes: number;
  writtenEntries: number;
  checkpoints: number;
  actions: number;
}

const mib = (n: number) => (n / 1048576).toFixed(1);
const kib = (n: number) => (n / 1024).toFixed(1);

function trend(label: string, rows: readonly Sample[], pick: (r: Sample) => number): string {
  const middle = (STEADY_FROM_S + SOAK_SECONDS) / 2;
  const early = rows.filter((r) => r.s >= STEADY_FROM_S && r.s < middle).map(pick);
  const late = rows.filter((r) => r.s >= middle).map(pick);
  if (!early.length || !late.length) return `${label}: too few samples for halves`;
  const ratio = median(late) / median(early);
  const verdict = ratio <= GROWTH_MARGIN ? 'flat' : 'growing';
  return `${label}: peak ${mib(Math.max(...rows.map(pick)))} MiB; from ${STEADY_FROM_S} s on, median ${mib(median(early))} MiB in the first half, ${mib(median(late))} MiB in the second (×${ratio.toFixed(2)}): ${verdict}`;
}

export async function soak(site: SiteServer): Promise<void> {
  const what =
    SOAK_MODE === 'busy'
      ? `an agent acting every ${SOAK_ACTION_MS} ms on the order desk (typing, rows added and removed, afr steps and marks, a fresh document every ~10 s)`
      : 'an animated page, no agent';
  console.log(
    `\n4. Soak (BENCH_SOAK=${SOAK_MODE}): ${SOAK_SECONDS} s at 8 fps, ${what}, DOM timeline on (capture level full; cap 64 MiB of frames, 16 MiB of timeline); every ${SOAK_SAMPLE_SECONDS} s: ring, IndexedDB usage, the service worker's JS heap after a GC, the timeline kept and written since the start, steps kept (the last 60 s)`,
  );
  const browser = await launchWithRecorder({ debuggingPort: SOAK_DEBUGGING_PORT });
  const heap = await connectWorkerHeap(SOAK_DEBUGGING_PORT, browser.extensionId);
  let agent: SoakAgent | null = null;
  try {
    await afr(browser.worker, 'configure', { autoDownload: false, captureSource: 'auto', fps: 8 });
    const page = browser.context.pages()[0] ?? (await browser.context.newPage());
    await page.setViewportSize({ width: 1280, height: 720 });
    if (SOAK_MODE === 'busy') {
      agent = startSoakAgent(page, browser.worker, site);
      await pause(WARM_UP_MS);
    } else await page.goto(`${site.origin}/errors.html`);
    const rows: Sample[] = [];
    const start = Date.now();
    for (let s = 0; s <= SOAK_SECONDS; s += SOAK_SAMPLE_SECONDS) {
      if (s > 0) await pause(start + s * 1000 - Date.now());
      const status = await afr(browser.worker, 'status');
      const idb = await browser.worker.evaluate(async () => (await navigator.storage.estimate()).usage ?? 0);
      const t = status.timeline;
      const row: Sample = {
        s,
        ring: status.bytes,
        frames: status.frames,
        idb,
        heap: await heap.used(),
        steps: status.steps,
        keptBytes: t?.bytes ?? 0,
        documents: t?.documents ?? 0,
        writtenBytes: t?.receivedBytes ?? 0,
        writtenEntries: t?.receivedEntries ?? 0,
        checkpoints: t?.receivedCheckpoints ?? 0,
        actions: agent?.counts.actions ?? 0,
      };
      rows.push(row);
      console.log(
        `   ${String(s).padStart(4)} s: ring ${mib(row.ring)} MiB / ${row.frames} frames, IndexedDB ${mib(row.idb)} MiB, worker heap ${mib(row.heap)} MiB; timeline kept ${kib(row.keptBytes)} KiB / ${row.documents} documents, written ${kib(row.writtenBytes)} KiB (${row.writtenEntries} entries, ${row.checkpoints} checkpoints); steps kept ${row.steps}, agent actions ${row.actions}`,
      );
    }
    const counts = agent ? { ...agent.counts } : null;
    const first = rows[0]!;
    const last = rows.at(-1)!;
    const minutes = (last.s - first.s) / 60;
    const written = last.writtenBytes - first.writtenBytes;
    const checkpoints = last.checkpoints - first.checkpoints;
    const actions = last.actions - first.actions;
    if (rows.some((r, i) => i > 0 && r.writtenBytes < rows[i - 1]!.writtenBytes)) {
      console.log('   the worker restarted during the run (its timeline counters went back): the written figures below are low');
    }
    console.log(
      `   timeline written: ${kib(written / minutes)} KiB per minute; ${kib(written / Math.max(1, checkpoints))} KiB per checkpoint (one per step, and per page loaded and left; ${checkpoints} over the run, ${(checkpoints / minutes).toFixed(0)} a minute)${actions ? `, ${kib(written / actions)} KiB per agent action (${actions})` : ''}; ${((last.writtenEntries - first.writtenEntries) / Math.max(1, checkpoints)).toFixed(1)} entries per checkpoint`,
    );
    console.log(`   timeline kept: peak ${kib(Math.max(...rows.map((r) => r.keptBytes)))} KiB, ${Math.max(...rows.map((r) => r.documents))} documents at most; steps kept (last 60 s) peak ${Math.max(...rows.map((r) => r.steps))}`);
    if (counts) console.log(`   agent: ${counts.actions} actions (${counts.agentSteps} afr steps and marks, ${counts.navigations} fresh documents), ${counts.errors} failed`);
    console.log(`   ${trend('IndexedDB', rows, (r) => r.idb)}`);
    console.log(`   ${trend('worker heap', rows, (r) => r.heap)}`);
  } finally {
    await agent?.stop();
    heap.close();
    await browser.close();
  }
}

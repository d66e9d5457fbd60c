/**
 * `npx tsx bench/clip-encoders.ts` (after a build; AFR_EXTENSION_DIR picks it): how long each clip encoder
 * takes in the offscreen document for 30 and 120 frames of 1280×720, as medians over BENCH_RUNS (≥ 5)
 * runs, plus what its first call costs. Frames are screenshots of a busy page (a table, text, typing, a
 * moving gradient box). Figures only: these machines are shared and noisy, so nothing here asserts.
 */
import os from 'node:os';
import { afr } from '../e2e/support/afr';
import { encodeOffscreen, openOffscreen, screenshotFrames, storeFrames, takeClip, warmOffscreen, type EncoderPreference } from '../e2e/support/clip-harness';
import { launchWithRecorder } from '../e2e/support/launch';
import type { Worker } from 'playwright-core';

const RUNS = Math.max(5, Number(process.env.BENCH_RUNS ?? 7));
const FRAME_MS = 550; // the recorder's capture pace
const SIZES = [30, 120] as const;

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};
const spread = (xs: readonly number[]) => `${Math.round(median(xs))} (${Math.round(Math.min(...xs))}–${Math.round(Math.max(...xs))})`;

interface Figures {
  encoder: string;
  warmupMs: number;
  warmupRoundTripMs: number;
  coldClipMs: number;
  encodeMs: Record<number, number[]>;
  roundTripMs: Record<number, number[]>;
  sizeKiB: Record<number, number>;
}

let jobs = 0;
async function encode(worker: Worker, keys: readonly number[], count: number, expected: EncoderPreference) {
  const jobId = `bench-${++jobs}`;
  const { result, ms } = await encodeOffscreen(worker, jobId, keys.slice(0, count).map((key) => ({ key, duration_ms: FRAME_MS })));
  if (!result.ok) throw new Error(`${expected} failed: ${result.error}`);
  // A fallback would measure the wrong encoder.
  if (!result.encoder.startsWith(expected === 'ffmpeg' ? 'ffmpeg.wasm/' : 'webcodecs/')) throw new Error(`expected ${expected}, got ${result.encoder}`);
  const mp4 = await takeClip(worker, jobId);
  return { result, roundTripMs: ms, bytes: mp4.byteLength };
}

async function measure(worker: Worker, keys: readonly number[], preference: EncoderPreference): Promise<Figures> {
  // First call, cold: a fresh document, no warmup, straight into a 30-frame clip.
  await openOffscreen(worker, preference);
  const cold = await encode(worker, keys, 30, preference);
  // First call, warmed up: what `clip/warmup` costs a fresh document at start-up.
  await openOffscreen(worker, preference);
  const { answer, ms: warmupRoundTripMs } = await warmOffscreen(worker);
  if (!answer.ok) throw new Error(`${preference} warmup failed: ${answer.error}`);

  const figures: Figures = {
    encoder: cold.result.ok ? cold.result.encoder : preference,
    warmupMs: answer.load_ms,
    warmupRoundTripMs,
    coldClipMs: cold.result.ok ? cold.result.encode_ms : NaN,
    encodeMs: { 30: [], 120: [] },
    roundTripMs: { 30: [], 120: [] },
    sizeKiB: {},
  };
  for (let run = 0; run < RUNS; run++) {
    for (const count of SIZES) {
      const { result, roundTripMs, bytes } = await encode(worker, keys, count, preference);
      if (result.ok) figures.encodeMs[count]!.push(result.encode_ms);
      figures.roundTripMs[count]!.push(roundTripMs);
      figures.sizeKiB[count] = Math.round(bytes / 1024);
    }
    process.stdout.write('.');
  }
  return figures;
}

async function main(): Promise<void> {
  const browser = await launchWithRecorder();
  try {
    const { worker, context } = browser;
    await afr(worker, 'status');
    const loadBefore = os.loadavg()[0]!;
    console.log(`screenshotting ${Math.max(...SIZES)} frames of 1280×720…`);
    const jpegs = await screenshotFrames(context, Math.max(...SIZES));
    const keys = await storeFrames(worker, jpegs);
    const meanKiB = jpegs.reduce((sum, j) => sum + j.byteLength, 0) / jpegs.length / 1024;

    const results: Figures[] = [];
    for (const preference of ['webcodecs', 'ffmpeg'] as const) {
      process.stdout.write(`${preference} `);
      results.push(await measure(worker, keys, preference));
      process.stdout.write('\n');
    }

    const header = ['encoder', 'warmup (load/configure)', 'cold first clip, 30 fr', '30 frames', '120 frames', '120 fr, job round trip', 'mp4 120 fr'];
    const rows = results.map((r) => [
      r.encoder,
      `${Math.round(r.warmupMs)} ms`,
      `${Math.round(r.coldClipMs)} ms`,
      `${spread(r.encodeMs[30]!)} ms`,
      `${spread(r.encodeMs[120]!)} ms`,
      `${spread(r.roundTripMs[120]!)} ms`,
      `${r.sizeKiB[120]} KiB`,
    ]);
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
    const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
    console.log(`\nClip encoding in the offscreen document: 1280×720 JPEG frames (q70, mean ${meanKiB.toFixed(0)} KiB), ${FRAME_MS} ms each.`);
    console.log(`Encode times as reported by the document (frames in memory → mp4); medians of ${RUNS} runs (min–max).`);
    console.log(`The round trip adds reading the frames from IndexedDB, storing the clip and the two messages.`);
    console.log(line(header));
    console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
    for (const row of rows) console.log(line(row));
    console.log(`\n${os.cpus().length} CPUs, load average ${loadBefore.toFixed(2)} before, ${os.loadavg()[0]!.toFixed(2)} after.`);
  } finally {
    await browser.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

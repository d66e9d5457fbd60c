import type { Worker } from 'playwright-core';
import { afr } from './support/afr';
import { encodeOffscreen, grabGrey, openOffscreen, probeClip, screenshotFrames, storeFrames, takeClip, warmOffscreen, type ClipFacts } from './support/clip-harness';
import { expect, test } from './support/fixtures';

// Irregular, as captures are: the recorder's ~550 ms pace, a stall, a burst, and a long last frame.
const DURATIONS_MS = [550, 612, 548, 1800, 560, 120, 130, 590, 555, 2400, 575, 900];
const sumSeconds = (durations: readonly number[]) => durations.reduce((sum, ms) => sum + ms, 0) / 1000;

/** Encodes stored frames in the offscreen document and returns the encoder's answer and ffprobe's view. */
async function encodeStored(worker: Worker, keys: readonly number[], durations: readonly number[]) {
  const frames = keys.map((key, i) => ({ key, duration_ms: durations[i] ?? 500 }));
  const jobId = `e2e-${Date.now()}`;
  const { result } = await encodeOffscreen(worker, jobId, frames);
  if (!result.ok) throw new Error(`encode failed: ${result.error}`);
  const mp4 = await takeClip(worker, jobId);
  return { result, mp4, facts: await probeClip(mp4) };
}

/** Every frame starts when it should and the clip lasts as long as the frames did. */
function expectRealTiming(facts: ClipFacts, durations: readonly number[]) {
  const total = sumSeconds(durations);
  expect(facts.streamSeconds).toBeGreaterThan(total - 0.15);
  expect(facts.streamSeconds).toBeLessThan(total + 0.15);
  expect(facts.formatSeconds).toBeGreaterThan(total - 0.15);
  expect(facts.formatSeconds).toBeLessThan(total + 0.15);
  // One extra picture holds the last frame to its end (see planVideoSamples and buildConcatScript).
  expect(facts.frames).toBe(durations.length + 1);
  let start = 0;
  durations.forEach((ms, i) => {
    expect(Math.abs((facts.packetStarts[i] ?? -1) - start), `frame ${i} starts at ${start} s`).toBeLessThan(0.01);
    start += ms / 1000;
  });
}

const meanOf = (grey: Buffer, width: number, x0: number, x1: number, y0: number, y1: number) => {
  let sum = 0;
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) sum += grey[y * width + x] ?? 0;
  return sum / ((x1 - x0) * (y1 - y0));
};

test.describe('clip encoders in the offscreen document', () => {
  test('WebCodecs: H.264 at 1280×720, 4:2:0, every frame for its real duration', async ({ recorder }) => {
    const { worker, context } = recorder;
    await afr(worker, 'status');
    const keys = await storeFrames(worker, await screenshotFrames(context, DURATIONS_MS.length));
    await openOffscreen(worker, 'webcodecs');

    const { result, facts } = await encodeStored(worker, keys, DURATIONS_MS);
    expect(result.encoder).toBe('webcodecs/avc1.42001f');
    expect(result.duration_seconds).toBeCloseTo(sumSeconds(DURATIONS_MS), 3);
    expect(facts).toMatchObject({ codec: 'h264', width: 1280, height: 720 });
    // 8-bit 4:2:0. WebCodecs keeps the JPEGs' full range and says so (ffprobe: yuvj420p, color_range pc).
    expect(facts.pixFmt).toMatch(/^yuvj?420p$/);
    expectRealTiming(facts, DURATIONS_MS);
  });

  test('ffmpeg.wasm: the same facts through the fallback encoder', async ({ recorder }) => {
    const { worker, context } = recorder;
    await afr(worker, 'status');
    const keys = await storeFrames(worker, await screenshotFrames(context, DURATIONS_MS.length));
    await openOffscreen(worker, 'ffmpeg');

    const { result, facts } = await encodeStored(worker, keys, DURATIONS_MS);
    expect(result.encoder).toBe('ffmpeg.wasm/libx264-ultrafast');
    expect(facts).toMatchObject({ codec: 'h264', width: 1280, height: 720, pixFmt: 'yuv420p' });
    expectRealTiming(facts, DURATIONS_MS);
  });

  test('the extension’s own document warms WebCodecs up and encodes with it', async ({ recorder }) => {
    const { worker, context } = recorder;
    await afr(worker, 'status');
    const durations = DURATIONS_MS.slice(0, 4);
    const keys = await storeFrames(worker, await screenshotFrames(context, durations.length));
    await openOffscreen(worker, 'auto');

    const { answer } = await warmOffscreen(worker);
    expect(answer).toMatchObject({ ok: true, encoder: 'webcodecs' });
    const { result, facts } = await encodeStored(worker, keys, durations);
    expect(result.encoder).toMatch(/^webcodecs\/avc1\./);
    expectRealTiming(facts, durations);
  });

  test('WebCodecs letterboxes frames of another shape and scales frames of another size', async ({ recorder }) => {
    const { worker, context } = recorder;
    await afr(worker, 'status');
    const narrow = await screenshotFrames(context, 2, { width: 1000, height: 720 });
    const large = await screenshotFrames(context, 2, { width: 1600, height: 900 });
    const hd = await screenshotFrames(context, 2);
    await openOffscreen(worker, 'webcodecs');
    const durations = [500, 500, 500, 500, 500, 500];

    // Narrow frames first, then the window's final size: pillarboxed like the ffmpeg path.
    const pillarboxed = await encodeStored(worker, await storeFrames(worker, [...narrow, ...hd]), durations.slice(0, 4));
    expect(pillarboxed.facts).toMatchObject({ codec: 'h264', width: 1280, height: 720 });
    expectRealTiming(pillarboxed.facts, durations.slice(0, 4));
    const early = await grabGrey(pillarboxed.mp4, 0.25);
    const late = await grabGrey(pillarboxed.mp4, 1.25);
    // (1280 − 1000) / 2 = 140 black columns each side in the narrow frames; page background in the last ones.
    expect(meanOf(early, 1280, 0, 130, 0, 720)).toBeLessThan(20);
    expect(meanOf(early, 1280, 1150, 1280, 0, 720)).toBeLessThan(20);
    expect(meanOf(late, 1280, 0, 130, 200, 720)).toBeGreaterThan(150);

    // 1600×900 has the clip's shape: scaled to 1280×720, no bars.
    const scaled = await encodeStored(worker, await storeFrames(worker, [...large, ...hd], 1_000_100_000), durations.slice(0, 4));
    expect(scaled.facts).toMatchObject({ width: 1280, height: 720 });
    expectRealTiming(scaled.facts, durations.slice(0, 4));
    expect(meanOf(await grabGrey(scaled.mp4, 0.25), 1280, 0, 130, 200, 720)).toBeGreaterThan(150);
  });
});

import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { BrowserContext, Worker } from 'playwright-core';
import type { ClipEncodeResult, ClipFrameRef, ClipWarmupResult } from '../../schemas/messages';
import type { EncoderPreference } from '../../src/clip/encoder-choice';

export type { EncoderPreference };

/**
 * Drives the offscreen clip encoder straight from the service worker, without the recorder: realistic
 * JPEG frames go into the frame store under keys of their own, a `clip/encode` message goes to an
 * offscreen document opened with `?encoder=…`, and the mp4 comes back for ffprobe. Shared by
 * `e2e/clip-encoders.spec.ts` and `bench/clip-encoders.ts`.
 */

/** Frame keys far above the recorder's own (autoincrement from 1), so the ring never touches them. */
export const FRAME_KEY_BASE = 1_000_000_000;

const FRAME_PAGE = `<!doctype html><html><head><style>
  body { margin: 0; font: 15px/1.45 system-ui, sans-serif; color: #1d2330; background: #f6f7fb; }
  header { background: #243b6b; color: #fff; padding: 14px 24px; font-size: 20px; }
  main { display: grid; grid-template-columns: 2fr 1fr; gap: 20px; padding: 20px 24px; }
  .card { background: #fff; border-radius: 8px; padding: 14px 18px; box-shadow: 0 1px 3px #0002; }
  table { border-collapse: collapse; width: 100%; } td, th { border-bottom: 1px solid #dde; padding: 4px 6px; text-align: left; }
  #box { position: fixed; width: 110px; height: 110px; border-radius: 18px; background: linear-gradient(45deg, #e8453c, #3c6be8); }
  #typed { font-family: monospace; border: 1px solid #99a; padding: 6px; min-height: 20px; }
  #bar { height: 10px; background: #3c6be8; width: 0; }
</style></head><body>
<header>Orders · Acme back office</header>
<main>
  <section class="card"><h2>Recent orders</h2><div id="bar"></div><table id="orders"></table></section>
  <section class="card"><h2>Notes</h2><div id="typed"></div><p id="text"></p></section>
</main><div id="box"></div>
<script>
  const rows = Array.from({ length: 60 }, (_, i) => '<tr><td>#' + (10400 + i * 7) + '</td><td>Customer ' + String.fromCharCode(65 + (i % 26)) + ' ' + (i * 37 % 101) + '</td><td>' + (i % 3 ? 'shipped' : 'pending') + '</td><td>$' + (i * 13.37).toFixed(2) + '</td></tr>');
  document.getElementById('orders').innerHTML = '<tr><th>Order</th><th>Customer</th><th>Status</th><th>Total</th></tr>' + rows.join('');
  document.getElementById('text').textContent = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(30);
  window.step = (i) => {
    window.scrollTo(0, (i * 23) % 900);
    const box = document.getElementById('box');
    box.style.left = (60 + ((i * 41) % 1000)) + 'px';
    box.style.top = (240 + Math.round(Math.sin(i / 3) * 150)) + 'px';
    box.style.transform = 'rotate(' + (i * 9) + 'deg)';
    document.getElementById('typed').textContent = 'checkout step ' + i + ': ' + 'the quick brown fox jumps '.slice(0, i % 27);
    document.getElementById('bar').style.width = ((i * 7) % 100) + '%';
  };
</script></body></html>`;

/**
 * JPEG screenshots (quality 70, the recorder's default) of a busy page: a table, text, a typed line and
 * a moving gradient box; each frame scrolls and moves things, as a real session would.
 * The page is `about:blank` to the recorder, which therefore leaves it alone.
 */
export async function screenshotFrames(context: BrowserContext, count: number, viewport = { width: 1280, height: 720 }): Promise<Buffer[]> {
  const page = await context.newPage();
  try {
    await page.setViewportSize(viewport);
    await page.setContent(FRAME_PAGE);
    const frames: Buffer[] = [];
    for (let i = 0; i < count; i++) {
      await page.evaluate('window.step(' + i + ')');
      frames.push(await page.screenshot({ type: 'jpeg', quality: 70 }));
    }
    return frames;
  } finally {
    await page.close();
  }
}

// Functions passed to `evaluate` are serialised; tsx (the bench) compiles with esbuild's keepNames,
// which wraps named functions in a `__name` helper the service worker does not have.
async function shimNames(worker: Worker): Promise<void> {
  await worker.evaluate('globalThis.__name ??= (fn) => fn');
}

/** Writes JPEGs into the recorder's frame store (`frameData` only) under `firstKey`, `firstKey + 1`, … */
export async function storeFrames(worker: Worker, jpegs: readonly Buffer[], firstKey = FRAME_KEY_BASE): Promise<number[]> {
  await shimNames(worker);
  const keys = jpegs.map((_, i) => firstKey + i);
  // A few at a time: each evaluate carries its frames as base64 text.
  for (let at = 0; at < jpegs.length; at += 16) {
    const batch = jpegs.slice(at, at + 16).map((jpeg, i) => ({ key: firstKey + at + i, base64: jpeg.toString('base64') }));
    await worker.evaluate(async (rows) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open('agent-flight-recorder');
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      const tx = db.transaction('frameData', 'readwrite');
      for (const row of rows) {
        const jpeg = Uint8Array.from(atob(row.base64), (c) => c.charCodeAt(0)).buffer;
        tx.objectStore('frameData').put({ key: row.key, jpeg });
      }
      await new Promise<void>((resolve, reject) => {
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error);
      });
      db.close();
    }, batch);
  }
  return keys;
}

/**
 * Closes the offscreen document, if any, and opens a fresh one that uses `preference`, then waits until
 * it answers. The recorder opens its own document at start-up (to warm the encoder up): this replaces it.
 */
export async function openOffscreen(worker: Worker, preference: EncoderPreference): Promise<void> {
  await shimNames(worker);
  await worker.evaluate(async (preference) => {
    const file = preference === 'auto' ? 'offscreen.html' : `offscreen.html?encoder=${preference}`;
    const url = chrome.runtime.getURL(file);
    for (let attempt = 0; attempt < 50; attempt++) {
      const documents = await chrome.runtime.getContexts({ contextTypes: [chrome.runtime.ContextType.OFFSCREEN_DOCUMENT] });
      if (attempt > 0 && documents.length === 1 && documents[0]?.documentUrl === url) return;
      if (documents.length > 0) await chrome.offscreen.closeDocument().catch(() => undefined);
      // Only one offscreen document may exist: the recorder's own may be opening right now; try again.
      await chrome.offscreen
        .createDocument({ url: file, reasons: [chrome.offscreen.Reason.WORKERS], justification: 'clip encoder test' })
        .catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`could not open ${file}`);
  }, preference);
}

/** Sends `clip/warmup` to the offscreen document; `ms` is the whole round trip from the service worker. */
export async function warmOffscreen(worker: Worker): Promise<{ answer: ClipWarmupResult; ms: number }> {
  await shimNames(worker);
  return worker.evaluate(async () => {
    const started = performance.now();
    const answer = (await chrome.runtime.sendMessage({ type: 'clip/warmup' })) as ClipWarmupResult;
    return { answer, ms: performance.now() - started };
  });
}

/** Sends `clip/encode`; `ms` is the round trip (frames read from IndexedDB, encoded, clip stored, answered). */
export async function encodeOffscreen(worker: Worker, jobId: string, frames: readonly ClipFrameRef[]): Promise<{ result: ClipEncodeResult; ms: number }> {
  await shimNames(worker);
  return worker.evaluate(
    async ({ jobId, frames }) => {
      const started = performance.now();
      const result = (await chrome.runtime.sendMessage({ type: 'clip/encode', job_id: jobId, frames })) as ClipEncodeResult;
      return { result, ms: performance.now() - started };
    },
    { jobId, frames },
  );
}

/** Reads a job's mp4 from the clip store and removes it. */
export async function takeClip(worker: Worker, jobId: string): Promise<Buffer> {
  await shimNames(worker);
  const base64 = await worker.evaluate(async (jobId) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('agent-flight-recorder');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const store = db.transaction('clips', 'readwrite').objectStore('clips');
    const row = await new Promise<{ mp4: ArrayBuffer } | undefined>((resolve, reject) => {
      const get = store.get(jobId);
      get.onsuccess = () => resolve(get.result as { mp4: ArrayBuffer } | undefined);
      get.onerror = () => reject(get.error);
    });
    store.delete(jobId);
    db.close();
    if (!row) return null;
    const bytes = new Uint8Array(row.mp4);
    let text = '';
    for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(text);
  }, jobId);
  if (base64 === null) throw new Error(`no clip stored for ${jobId}`);
  return Buffer.from(base64, 'base64');
}

const run = promisify(execFile);

/** What ffprobe says about a clip's video stream. */
export interface ClipFacts {
  codec: string;
  profile: string;
  width: number;
  height: number;
  pixFmt: string;
  colorRange: string;
  streamSeconds: number;
  formatSeconds: number;
  frames: number;
  /** Presentation time of every packet, in seconds, in order. */
  packetStarts: number[];
}

async function withTempFile<T>(mp4: Buffer, use: (file: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'afr-clip-'));
  const file = path.join(dir, 'clip.mp4');
  writeFileSync(file, mp4);
  try {
    return await use(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs ffprobe (Debian's ffmpeg package) over an mp4. */
export function probeClip(mp4: Buffer): Promise<ClipFacts> {
  return withTempFile(mp4, async (file) => {
    const args = ['-v', 'error', '-select_streams', 'v:0', '-count_packets', '-show_streams', '-show_format', '-show_entries', 'packet=pts_time', '-of', 'json', file];
    const { stdout } = await run('ffprobe', args, { maxBuffer: 16 * 1024 * 1024 });
    const probe = JSON.parse(stdout) as {
      streams: { codec_name: string; profile: string; width: number; height: number; pix_fmt: string; color_range?: string; duration: string; nb_read_packets: string }[];
      format: { duration: string };
      packets: { pts_time: string }[];
    };
    const video = probe.streams[0];
    if (!video) throw new Error('no video stream');
    return {
      codec: video.codec_name,
      profile: video.profile,
      width: video.width,
      height: video.height,
      pixFmt: video.pix_fmt,
      colorRange: video.color_range ?? 'unknown',
      streamSeconds: Number(video.duration),
      formatSeconds: Number(probe.format.duration),
      frames: Number(video.nb_read_packets),
      packetStarts: probe.packets.map((p) => Number(p.pts_time)),
    };
  });
}

/** One decoded picture of the clip at `seconds`, as 8-bit grey levels (width × height bytes). */
export function grabGrey(mp4: Buffer, seconds: number): Promise<Buffer> {
  return withTempFile(mp4, async (file) => {
    const args = ['-v', 'error', '-ss', String(seconds), '-i', file, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'gray', '-'];
    const { stdout } = await run('ffmpeg', args, { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  });
}

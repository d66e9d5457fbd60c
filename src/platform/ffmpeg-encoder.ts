import { FFmpeg } from '@ffmpeg/ffmpeg';
import { browser, type PublicPath } from 'wxt/browser';
import { buildConcatScript, buildFfmpegArgs, frameFileName, sumDurationSeconds, type X264Preset } from '../clip/ffmpeg-args';
import { clipOutputSize } from '../clip/output-size';
import type { ClipEncoder, ClipFrame, EncodedClip } from '../clip/ports';
import { createSerialQueue } from '../clip/serial-queue';
import { withTimeout } from '../shared/timeout';

/** The part of `FFmpeg` the encoder uses (a fake stands in for it in unit tests). */
export type FfmpegLike = Pick<FFmpeg, 'load' | 'exec' | 'writeFile' | 'readFile' | 'deleteFile' | 'terminate' | 'on'>;

export interface FfmpegEncoderOptions {
  /**
   * Measured in Chromium (2 cores), 120 frames of 1280×720: ultrafast 2.1 s / 0.8 MB (typing on a page)
   * to 2.8 s / 13.8 MB (scrolling text); veryfast 3.1 s / 0.25 MB to 7.3 s / 4.0 MB. Default: ultrafast,
   * because the bundle waits for the clip.
   */
  preset?: X264Preset;
  /** Budget for fetching and compiling the 32 MB core. Measured: 160–180 ms. */
  loadTimeoutMs?: number;
  /** Budget for one `ffmpeg` run (see `preset` for measured times). */
  execTimeoutMs?: (frameCount: number) => number;
  /** URL of a file copied to `ffmpeg/` by `scripts/build/copy-ffmpeg-assets.ts`. */
  assetUrl?: (file: string) => string;
  createFfmpeg?: () => FfmpegLike;
}

const SCRIPT = 'list.txt';
const OUTPUT = 'out.mp4';
const LOG_LINES = 12;

/**
 * `ClipEncoder` over ffmpeg.wasm (single-thread core, libx264). Loads the core once and reuses it,
 * runs one job at a time (jobs share the core's in-memory file system), and empties that file system
 * after every job. A load or run that overstays its budget terminates the worker; the next job loads a
 * fresh one.
 */
export class FfmpegClipEncoder implements ClipEncoder {
  readonly name: string;
  readonly #preset: X264Preset;
  readonly #loadTimeoutMs: number;
  readonly #execTimeoutMs: (frameCount: number) => number;
  readonly #assetUrl: (file: string) => string;
  readonly #createFfmpeg: () => FfmpegLike;
  readonly #enqueue = createSerialQueue();
  #loading: Promise<FfmpegLike> | null = null;
  #log: string[] = [];

  constructor(options: FfmpegEncoderOptions = {}) {
    this.#preset = options.preset ?? 'ultrafast';
    this.#loadTimeoutMs = options.loadTimeoutMs ?? 30_000;
    this.#execTimeoutMs = options.execTimeoutMs ?? ((frameCount) => 20_000 + 150 * frameCount);
    // Copied by a build hook, which WXT's list of the extension's paths (`PublicPath`) does not know.
    this.#assetUrl = options.assetUrl ?? ((file) => browser.runtime.getURL(`/ffmpeg/${file}` as PublicPath));
    this.#createFfmpeg = options.createFfmpeg ?? (() => new FFmpeg());
    this.name = `ffmpeg.wasm/libx264-${this.#preset}`;
  }

  /** Loads the core now rather than on the first clip. */
  async warmup(): Promise<void> {
    await this.#ffmpeg();
  }

  encode(frames: readonly ClipFrame[]): Promise<EncodedClip> {
    return this.#enqueue(() => this.#encodeNow(frames));
  }

  #ffmpeg(): Promise<FfmpegLike> {
    this.#loading ??= this.#load().catch((error: unknown) => {
      this.#loading = null;
      throw error;
    });
    return this.#loading;
  }

  async #load(): Promise<FfmpegLike> {
    const ffmpeg = this.#createFfmpeg();
    ffmpeg.on('log', ({ message }) => {
      this.#log.push(message);
      if (this.#log.length > LOG_LINES) this.#log.shift();
    });
    // Plain extension URLs: the bundler does not emit ffmpeg's worker, and blob: URLs fail in extension pages.
    const config = {
      classWorkerURL: this.#assetUrl('worker.js'),
      coreURL: this.#assetUrl('ffmpeg-core.js'),
      wasmURL: this.#assetUrl('ffmpeg-core.wasm'),
    };
    await withTimeout(ffmpeg.load(config), this.#loadTimeoutMs, 'ffmpeg.wasm load', () => ffmpeg.terminate());
    return ffmpeg;
  }

  /** Drops a stuck worker; `terminate` also rejects every call still waiting on it. */
  #discard(ffmpeg: FfmpegLike): void {
    ffmpeg.terminate();
    this.#loading = null;
  }

  async #encodeNow(frames: readonly ClipFrame[]): Promise<EncodedClip> {
    const size = clipOutputSize(frames);
    const ffmpeg = await this.#ffmpeg();
    const durations = frames.map((frame) => frame.durationMs);
    const written: string[] = [];
    this.#log = [];
    try {
      for (const [index, frame] of frames.entries()) {
        const name = frameFileName(index);
        // writeFile transfers the view's whole buffer to the worker: hand it a copy, not the caller's bytes.
        await ffmpeg.writeFile(name, frame.jpeg.slice());
        written.push(name);
      }
      await ffmpeg.writeFile(SCRIPT, buildConcatScript(durations));
      written.push(SCRIPT, OUTPUT);

      const args = buildFfmpegArgs({ script: SCRIPT, output: OUTPUT, size, preset: this.#preset });
      const execMs = this.#execTimeoutMs(frames.length);
      // The core's own timeout stops a slow run cleanly; the outer one catches a worker that stopped answering.
      const exec = ffmpeg.exec(args, execMs).catch((error: unknown) => {
        // A rejected exec is a crash inside the worker (a wasm abort), not a non-zero exit: start over.
        this.#discard(ffmpeg);
        throw error;
      });
      const code = await withTimeout(exec, execMs + 5_000, 'ffmpeg.wasm encode', () => this.#discard(ffmpeg));
      if (code !== 0) throw new Error(`ffmpeg exited with code ${code}: ${this.#log.join(' | ')}`);

      const mp4 = await ffmpeg.readFile(OUTPUT);
      if (typeof mp4 === 'string') throw new Error('ffmpeg returned text instead of the mp4');
      return { mp4, durationSeconds: sumDurationSeconds(durations) };
    } finally {
      await this.#clean(ffmpeg, written);
    }
  }

  /** Empties the core's file system: 120 frames of 1280×720 are ~10 MB of wasm memory per job. */
  async #clean(ffmpeg: FfmpegLike, names: readonly string[]): Promise<void> {
    // Jobs never overlap, so a null here means this job's worker was terminated, memory and all.
    if (this.#loading === null) return;
    for (const name of names) {
      // The output is missing when ffmpeg failed early; nothing else to do about a failed delete.
      await ffmpeg.deleteFile(name).catch(() => undefined);
    }
  }
}

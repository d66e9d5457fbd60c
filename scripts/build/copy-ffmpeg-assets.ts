import { createRequire } from 'node:module';
import path from 'node:path';

/** A file copied verbatim into the built extension. */
export interface CopiedAsset {
  absoluteSrc: string;
  relativeDest: string;
}

/**
 * ffmpeg.wasm files the offscreen encoder loads by plain extension URL.
 *
 * Vite does not emit @ffmpeg/ffmpeg's internal `worker.js` (its `new Worker(new URL(...))` is not
 * followed), so `FFmpeg.load()` would hang forever; the worker, its two imports and the single-thread
 * core are copied as-is and passed to `load()` as `classWorkerURL`, `coreURL` and `wasmURL`.
 * `blob:` URLs do not work from an extension page.
 */
export function copyFfmpegAssets(): CopiedAsset[] {
  const require = createRequire(import.meta.url);
  // Neither package exports its package.json; both resolve to a file inside `dist/`.
  const ffmpegDir = path.dirname(require.resolve('@ffmpeg/ffmpeg/worker'));
  const coreDir = path.join(path.dirname(require.resolve('@ffmpeg/core')), '../esm');
  return [
    ...['worker.js', 'const.js', 'errors.js'].map((name) => ({
      absoluteSrc: path.join(ffmpegDir, name),
      relativeDest: `ffmpeg/${name}`,
    })),
    ...['ffmpeg-core.js', 'ffmpeg-core.wasm'].map((name) => ({
      absoluteSrc: path.join(coreDir, name),
      relativeDest: `ffmpeg/${name}`,
    })),
  ];
}

import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ClipFrame } from '../clip/ports';
import { FfmpegClipEncoder, type FfmpegLike } from './ffmpeg-encoder';

const jpeg = new Uint8Array(readFileSync(new URL('../../test/fixtures/clip/odd-65x37.jpeg', import.meta.url)));
const frames: ClipFrame[] = [
  { jpeg, durationMs: 600 },
  { jpeg, durationMs: 400 },
];

/** An in-memory stand-in for ffmpeg.wasm's worker: a file system and a scripted `exec`. */
function fakeFfmpeg(exec: (args: string[]) => Promise<number> = () => Promise.resolve(0)) {
  const files = new Map<string, Uint8Array | string>();
  const fake = {
    files,
    load: vi.fn(() => Promise.resolve(true)),
    exec: vi.fn((args: string[]) => exec(args).then((code) => (code === 0 && files.set('out.mp4', new Uint8Array([0, 0, 0, 24])), code))),
    writeFile: vi.fn((path: string, data: Uint8Array | string) => (files.set(path, data), Promise.resolve(true))),
    readFile: vi.fn((path: string) => {
      const data = files.get(path);
      return data === undefined ? Promise.reject(new Error('ENOENT')) : Promise.resolve(data);
    }),
    deleteFile: vi.fn((path: string) => (files.delete(path) ? Promise.resolve(true) : Promise.reject(new Error('ENOENT')))),
    terminate: vi.fn(),
    on: vi.fn(),
  };
  return fake;
}

function encoderWith(...fakes: ReturnType<typeof fakeFfmpeg>[]) {
  const queue = [...fakes];
  return new FfmpegClipEncoder({
    assetUrl: (file) => `chrome-extension://id/ffmpeg/${file}`,
    createFfmpeg: () => queue.shift() as unknown as FfmpegLike,
    loadTimeoutMs: 1000,
    execTimeoutMs: () => 1000,
  });
}

describe('FfmpegClipEncoder', () => {
  afterEach(() => vi.useRealTimers());

  it('loads the core from extension URLs, once', async () => {
    const ffmpeg = fakeFfmpeg();
    const encoder = encoderWith(ffmpeg);
    await encoder.warmup();
    await encoder.encode(frames);
    expect(ffmpeg.load).toHaveBeenCalledOnce();
    expect(ffmpeg.load).toHaveBeenCalledWith({
      classWorkerURL: 'chrome-extension://id/ffmpeg/worker.js',
      coreURL: 'chrome-extension://id/ffmpeg/ffmpeg-core.js',
      wasmURL: 'chrome-extension://id/ffmpeg/ffmpeg-core.wasm',
    });
  });

  it('encodes at the last frame size and leaves the file system empty', async () => {
    const ffmpeg = fakeFfmpeg();
    const encoder = encoderWith(ffmpeg);
    const clip = await encoder.encode(frames);
    expect(clip).toEqual({ mp4: new Uint8Array([0, 0, 0, 24]), durationSeconds: 1 });
    expect(encoder.name).toBe('ffmpeg.wasm/libx264-ultrafast');
    const args = ffmpeg.exec.mock.calls[0]?.[0] ?? [];
    expect(args[args.indexOf('-vf') + 1]).toContain('pad=64:36');
    expect([...ffmpeg.files.keys()]).toEqual([]);
    // The caller's bytes are not transferred away.
    expect(jpeg.byteLength).toBeGreaterThan(0);
  });

  it('runs jobs one at a time', async () => {
    let running = 0;
    let most = 0;
    const ffmpeg = fakeFfmpeg(async () => {
      most = Math.max(most, ++running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running -= 1;
      return 0;
    });
    const encoder = encoderWith(ffmpeg);
    await Promise.all([encoder.encode(frames), encoder.encode(frames), encoder.encode(frames)]);
    expect(most).toBe(1);
    expect(ffmpeg.load).toHaveBeenCalledOnce();
  });

  it('reports a non-zero exit with the log tail and still cleans up', async () => {
    const ffmpeg = fakeFfmpeg(() => Promise.resolve(1));
    await expect(encoderWith(ffmpeg).encode(frames)).rejects.toThrow(/ffmpeg exited with code 1/);
    expect([...ffmpeg.files.keys()]).toEqual([]);
    expect(ffmpeg.terminate).not.toHaveBeenCalled();
  });

  it('terminates a worker that stops answering and loads a fresh one next time', async () => {
    vi.useFakeTimers();
    const stuck = fakeFfmpeg(() => new Promise(() => undefined));
    const fresh = fakeFfmpeg();
    const encoder = encoderWith(stuck, fresh);
    const first = encoder.encode(frames);
    const assertion = expect(first).rejects.toThrow(/ffmpeg.wasm encode timed out/);
    await vi.advanceTimersByTimeAsync(6000);
    await assertion;
    expect(stuck.terminate).toHaveBeenCalled();
    await expect(encoder.encode(frames)).resolves.toMatchObject({ durationSeconds: 1 });
    expect(fresh.load).toHaveBeenCalledOnce();
  });

  it('starts over after a crash inside the worker', async () => {
    const crashed = fakeFfmpeg(() => Promise.reject('RuntimeError: unreachable'));
    const fresh = fakeFfmpeg();
    const encoder = encoderWith(crashed, fresh);
    await expect(encoder.encode(frames)).rejects.toThrow('RuntimeError: unreachable');
    expect(crashed.terminate).toHaveBeenCalled();
    await expect(encoder.encode(frames)).resolves.toBeDefined();
  });

  it('gives up on a load that hangs, and retries it on the next job', async () => {
    vi.useFakeTimers();
    const hanging = fakeFfmpeg();
    hanging.load.mockReturnValue(new Promise(() => undefined));
    const encoder = encoderWith(hanging, fakeFfmpeg());
    const warm = expect(encoder.warmup()).rejects.toThrow(/load timed out/);
    await vi.advanceTimersByTimeAsync(1000);
    await warm;
    expect(hanging.terminate).toHaveBeenCalled();
    await expect(encoder.encode(frames)).resolves.toBeDefined();
  });

  it('refuses frames it cannot size', async () => {
    const encoder = encoderWith(fakeFfmpeg());
    await expect(encoder.encode([])).rejects.toThrow(/at least one frame/);
    await expect(encoder.encode([{ jpeg: new Uint8Array([1, 2]), durationMs: 5 }])).rejects.toThrow(/not a readable JPEG/);
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { ChoosingClipEncoder, WARMUP_SIZE, readEncoderPreference, type EncoderPreference } from './encoder-choice';
import type { ClipFrame, EncodedClip } from './ports';

const jpeg = new Uint8Array(readFileSync(new URL('../../test/fixtures/clip/odd-65x37.jpeg', import.meta.url)));
const frames: ClipFrame[] = [
  { jpeg, durationMs: 600 },
  { jpeg, durationMs: 400 },
];
const clip = (encoder?: string): EncodedClip => ({ mp4: new Uint8Array(8), durationSeconds: 1, ...(encoder ? { encoder } : {}) });

function fakes({ unsupported = null as string | null, webcodecsFails = false, ffmpegFails = false } = {}) {
  const webcodecs = {
    name: 'webcodecs',
    unsupportedReason: vi.fn(() => Promise.resolve(unsupported)),
    warmup: vi.fn(() => (webcodecsFails ? Promise.reject(new Error('no encoder')) : Promise.resolve())),
    encode: vi.fn(() => (webcodecsFails ? Promise.reject(new Error('encoder closed')) : Promise.resolve(clip('webcodecs/avc1.42001f')))),
  };
  const ffmpeg = {
    name: 'ffmpeg.wasm/libx264-ultrafast',
    warmup: vi.fn(() => Promise.resolve()),
    encode: vi.fn(() => (ffmpegFails ? Promise.reject(new Error('exit code 1')) : Promise.resolve(clip()))),
  };
  return { webcodecs, ffmpeg };
}

function choose(preference: EncoderPreference, options: Parameters<typeof fakes>[0] = {}) {
  const parts = fakes(options);
  const warn = vi.fn();
  return { ...parts, warn, encoder: new ChoosingClipEncoder({ preference, ...parts, warn }) };
}

describe('readEncoderPreference', () => {
  it.each([
    ['', 'auto'],
    ['?encoder=ffmpeg', 'ffmpeg'],
    ['?encoder=webcodecs', 'webcodecs'],
    ['?x=1&encoder=ffmpeg', 'ffmpeg'],
    ['?encoder=FFMPEG', 'auto'],
    ['?encoder=vp9', 'auto'],
  ])('%j → %s', (search, expected) => {
    expect(readEncoderPreference(search)).toBe(expected);
  });
});

describe('ChoosingClipEncoder.encode', () => {
  it('uses WebCodecs when it supports the clip size, and names the codec', async () => {
    const { encoder, webcodecs, ffmpeg } = choose('auto');
    await expect(encoder.encode(frames)).resolves.toMatchObject({ encoder: 'webcodecs/avc1.42001f' });
    expect(webcodecs.unsupportedReason).toHaveBeenCalledWith({ width: 64, height: 36 });
    expect(ffmpeg.encode).not.toHaveBeenCalled();
    expect(encoder.name).toBe('webcodecs/avc1.42001f');
  });

  it('falls back to ffmpeg.wasm when WebCodecs does not support the size', async () => {
    const { encoder, webcodecs } = choose('auto', { unsupported: 'no avc1 encoder for 64×36' });
    await expect(encoder.encode(frames)).resolves.toMatchObject({
      encoder: 'ffmpeg.wasm/libx264-ultrafast (webcodecs unsupported: no avc1 encoder for 64×36)',
    });
    expect(webcodecs.encode).not.toHaveBeenCalled();
  });

  it('falls back to ffmpeg.wasm when the WebCodecs encode throws, and logs why', async () => {
    const { encoder, ffmpeg, warn } = choose('auto', { webcodecsFails: true });
    const result = await encoder.encode(frames);
    expect(result).toMatchObject({ encoder: 'ffmpeg.wasm/libx264-ultrafast (webcodecs failed: encoder closed)' });
    expect(result.mp4).toHaveLength(8);
    expect(ffmpeg.encode).toHaveBeenCalledWith(frames);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('falling back'), expect.any(Error));
  });

  it('reports both failures when the fallback fails too', async () => {
    const { encoder } = choose('auto', { webcodecsFails: true, ffmpegFails: true });
    await expect(encoder.encode(frames)).rejects.toThrow('webcodecs failed: encoder closed; ffmpeg.wasm/libx264-ultrafast failed: exit code 1');
  });

  it('uses only ffmpeg.wasm when asked to', async () => {
    const { encoder, webcodecs } = choose('ffmpeg');
    await expect(encoder.encode(frames)).resolves.toMatchObject({ encoder: 'ffmpeg.wasm/libx264-ultrafast' });
    expect(webcodecs.unsupportedReason).not.toHaveBeenCalled();
  });

  it.each([
    ['unsupported', { unsupported: 'no VideoEncoder' }, 'webcodecs unsupported: no VideoEncoder'],
    ['failing', { webcodecsFails: true }, 'encoder closed'],
  ])('never falls back when WebCodecs alone is asked for and it is %s', async (_name, options, message) => {
    const { encoder, ffmpeg } = choose('webcodecs', options);
    await expect(encoder.encode(frames)).rejects.toThrow(message);
    expect(ffmpeg.encode).not.toHaveBeenCalled();
  });

  it('refuses a clip without a readable last frame before choosing', async () => {
    const { encoder, webcodecs, ffmpeg } = choose('auto');
    await expect(encoder.encode([{ jpeg: new Uint8Array(4), durationMs: 1 }])).rejects.toThrow(/not a readable JPEG/);
    expect(webcodecs.encode).not.toHaveBeenCalled();
    expect(ffmpeg.encode).not.toHaveBeenCalled();
  });
});

describe('ChoosingClipEncoder.warmup', () => {
  it('warms WebCodecs up for the usual size, leaving ffmpeg.wasm unloaded', async () => {
    const { encoder, webcodecs, ffmpeg } = choose('auto');
    expect(encoder.name).toBe('webcodecs, else ffmpeg.wasm/libx264-ultrafast');
    await encoder.warmup();
    expect(webcodecs.unsupportedReason).toHaveBeenCalledWith(WARMUP_SIZE);
    expect(webcodecs.warmup).toHaveBeenCalledOnce();
    expect(ffmpeg.warmup).not.toHaveBeenCalled();
    expect(encoder.name).toBe('webcodecs');
  });

  it.each([
    ['unsupported', { unsupported: 'no VideoEncoder' }, 'ffmpeg.wasm/libx264-ultrafast (webcodecs unsupported: no VideoEncoder)'],
    ['failing', { webcodecsFails: true }, 'ffmpeg.wasm/libx264-ultrafast (webcodecs failed: no encoder)'],
  ])('loads ffmpeg.wasm instead when WebCodecs is %s', async (_name, options, name) => {
    const { encoder, ffmpeg } = choose('auto', options);
    await encoder.warmup();
    expect(ffmpeg.warmup).toHaveBeenCalledOnce();
    expect(encoder.name).toBe(name);
  });

  it('loads only ffmpeg.wasm when asked to', async () => {
    const { encoder, webcodecs, ffmpeg } = choose('ffmpeg');
    await encoder.warmup();
    expect(ffmpeg.warmup).toHaveBeenCalledOnce();
    expect(webcodecs.unsupportedReason).not.toHaveBeenCalled();
    expect(encoder.name).toBe('ffmpeg.wasm/libx264-ultrafast');
  });

  it('fails when WebCodecs alone is asked for and unsupported', async () => {
    const { encoder, ffmpeg } = choose('webcodecs', { unsupported: 'no VideoEncoder' });
    await expect(encoder.warmup()).rejects.toThrow('webcodecs unsupported: no VideoEncoder');
    expect(ffmpeg.warmup).not.toHaveBeenCalled();
  });
});

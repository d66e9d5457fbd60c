import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readJpegSize } from '../shared/jpeg-size';
import type { ClipFrame } from '../clip/ports';
import { trackSeconds } from '../../test/fakes/mp4-boxes';
import { MAX_ENCODE_QUEUE, WebCodecsClipEncoder } from './webcodecs-encoder';

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../../test/fixtures/clip/${name}`, import.meta.url)));
const landscape = fixture('baseline-64x36.jpeg');
const odd = fixture('odd-65x37.jpeg');
const portrait = fixture('portrait-33x51.jpeg');
const frames = (...list: [Uint8Array, number][]): ClipFrame[] => list.map(([jpeg, durationMs]) => ({ jpeg, durationMs }));

/** Stand-ins for the WebCodecs and canvas globals, which node lacks. */
class FakeVideoFrame {
  static all: FakeVideoFrame[] = [];
  closed = false;
  readonly format: string;
  readonly timestamp: number;
  readonly duration: number | null;
  readonly visibleRect: { width: number; height: number } | null;
  readonly colorSpace: { toJSON(): object };
  constructor(source: unknown, init: { timestamp?: number; duration?: number; format?: string; visibleRect?: { width: number; height: number } } = {}) {
    const from = source instanceof FakeVideoFrame ? source : null;
    this.format = init.format ?? from?.format ?? 'BGRX';
    this.timestamp = init.timestamp ?? from?.timestamp ?? 0;
    this.duration = init.duration ?? null;
    this.visibleRect = init.visibleRect ?? from?.visibleRect ?? null;
    this.colorSpace = from?.colorSpace ?? { toJSON: () => ({ matrix: 'smpte170m', fullRange: true }) };
    FakeVideoFrame.all.push(this);
  }
  close() {
    this.closed = true;
  }
}

interface Encoded {
  timestamp: number;
  duration: number | null;
  keyFrame: boolean;
  format: string;
}

class FakeVideoEncoder {
  static supported = ['avc1.42001e'];
  static instances: FakeVideoEncoder[] = [];
  static failAt = -1;
  /** The decoder config the first chunk carries (null: none, which the muxer refuses). */
  static decoderConfig: object | null = { codec: 'avc1.42001e', description: new Uint8Array([1, 0x42, 0, 0x1e, 0xff, 0xe0, 0]) };
  static isConfigSupported = vi.fn((config: { codec: string }) => Promise.resolve({ supported: FakeVideoEncoder.supported.includes(config.codec) }));
  state = 'unconfigured';
  encodeQueueSize = 0;
  maxQueue = 0;
  config: unknown = null;
  encoded: Encoded[] = [];
  #listeners: (() => void)[] = [];
  constructor(private readonly init: { output: (chunk: unknown, meta?: unknown) => void; error: (e: Error) => void }) {
    FakeVideoEncoder.instances.push(this);
  }
  configure(config: unknown) {
    this.config = config;
    this.state = 'configured';
  }
  encode(frame: FakeVideoFrame, options: { keyFrame: boolean }) {
    if (this.state !== 'configured') throw new Error('InvalidStateError');
    if (frame.closed) throw new Error('closed frame');
    const index = this.encoded.push({ timestamp: frame.timestamp, duration: frame.duration, keyFrame: options.keyFrame, format: frame.format }) - 1;
    this.encodeQueueSize += 1;
    this.maxQueue = Math.max(this.maxQueue, this.encodeQueueSize);
    // Encode "later", like the real one: the queue drains a frame at a time. Chunks carry no duration (allowed).
    setTimeout(() => {
      this.encodeQueueSize -= 1;
      this.#listeners.splice(0).forEach((listener) => listener());
      if (this.state !== 'configured') return;
      if (index === FakeVideoEncoder.failAt) {
        this.state = 'closed';
        this.init.error(new Error('EncodingError: the codec crashed'));
        return;
      }
      const chunk = { type: options.keyFrame ? 'key' : 'delta', timestamp: frame.timestamp, duration: null, byteLength: 4, copyTo: (to: Uint8Array) => to.set([0, 0, 0, index]) };
      this.init.output(chunk, index === 0 && FakeVideoEncoder.decoderConfig ? { decoderConfig: FakeVideoEncoder.decoderConfig } : undefined);
    }, 1);
  }
  addEventListener(_type: 'dequeue', listener: () => void) {
    this.#listeners.push(listener);
  }
  async flush() {
    while (this.encodeQueueSize > 0) await new Promise((r) => setTimeout(r, 1));
    if (this.state !== 'configured') throw new Error('InvalidStateError: flush on a closed encoder');
  }
  close() {
    this.state = 'closed';
  }
}

let decodedFormat = 'I420';
class FakeImageDecoder {
  constructor(private readonly init: { data: Uint8Array }) {}
  decode() {
    const size = readJpegSize(this.init.data)!;
    return Promise.resolve({ image: new FakeVideoFrame(null, { format: decodedFormat, visibleRect: size }) });
  }
  close() {}
}

const drawn: number[][] = [];
class FakeOffscreenCanvas {
  constructor(readonly width: number, readonly height: number) {}
  getContext() {
    return { fillStyle: '', fillRect: () => undefined, drawImage: (_image: unknown, ...rect: number[]) => drawn.push(rect) };
  }
}

const createImageBitmap = vi.fn((blob: Blob) =>
  blob.arrayBuffer().then((bytes) => ({ ...readJpegSize(new Uint8Array(bytes))!, close: vi.fn() })),
);

describe('WebCodecsClipEncoder', () => {
  beforeEach(() => {
    FakeVideoFrame.all = [];
    FakeVideoEncoder.instances = [];
    FakeVideoEncoder.supported = ['avc1.42001e'];
    FakeVideoEncoder.failAt = -1;
    FakeVideoEncoder.decoderConfig = { codec: 'avc1.42001e', description: new Uint8Array([1, 0x42, 0, 0x1e, 0xff, 0xe0, 0]) };
    decodedFormat = 'I420';
    drawn.length = 0;
    vi.stubGlobal('VideoEncoder', FakeVideoEncoder);
    vi.stubGlobal('VideoFrame', FakeVideoFrame);
    vi.stubGlobal('ImageDecoder', FakeImageDecoder);
    vi.stubGlobal('OffscreenCanvas', FakeOffscreenCanvas);
    vi.stubGlobal('createImageBitmap', createImageBitmap);
  });
  afterEach(() => vi.unstubAllGlobals());

  describe('unsupportedReason', () => {
    it('names the missing API outside a document', async () => {
      vi.stubGlobal('VideoEncoder', undefined);
      await expect(new WebCodecsClipEncoder().unsupportedReason({ width: 64, height: 36 })).resolves.toBe('no VideoEncoder in this context');
    });

    it('takes the first codec the browser accepts, asking once per size', async () => {
      FakeVideoEncoder.supported = ['avc1.4d001e', 'avc1.64001e'];
      FakeVideoEncoder.isConfigSupported.mockClear();
      const encoder = new WebCodecsClipEncoder();
      await expect(encoder.unsupportedReason({ width: 64, height: 36 })).resolves.toBeNull();
      await expect(encoder.unsupportedReason({ width: 64, height: 36 })).resolves.toBeNull();
      expect(FakeVideoEncoder.isConfigSupported.mock.calls.map(([config]) => config.codec)).toEqual(['avc1.42001e', 'avc1.4d001e']);
      const clip = await encoder.encode(frames([landscape, 500]));
      expect(clip.encoder).toBe('webcodecs/avc1.4d001e');
    });

    it('says so when no H.264 configuration is supported', async () => {
      FakeVideoEncoder.supported = [];
      await expect(new WebCodecsClipEncoder().unsupportedReason({ width: 64, height: 36 })).resolves.toBe('no H.264 encoder for 64×36');
    });
  });

  it('stamps every frame with its start and real duration, splits the last one and closes every frame', async () => {
    const clip = await new WebCodecsClipEncoder().encode(frames([landscape, 600], [landscape, 550], [landscape, 2000]));
    const [encoder] = FakeVideoEncoder.instances;
    expect(encoder!.encoded).toEqual([
      { timestamp: 0, duration: 600_000, keyFrame: true, format: 'I420' },
      { timestamp: 600_000, duration: 550_000, keyFrame: false, format: 'I420' },
      { timestamp: 1_150_000, duration: 1_000_000, keyFrame: false, format: 'I420' },
      { timestamp: 2_150_000, duration: 1_000_000, keyFrame: false, format: 'I420' },
    ]);
    expect(encoder!.config).toMatchObject({ codec: 'avc1.42001e', width: 64, height: 36, avc: { format: 'avc' } });
    expect(encoder!.state).toBe('closed');
    expect(FakeVideoFrame.all.every((frame) => frame.closed)).toBe(true);
    expect(clip).toMatchObject({ durationSeconds: 3.15, encoder: 'webcodecs/avc1.42001e' });
    // The mp4 itself: the sample table and the header both add up to the frames' durations.
    const seconds = trackSeconds(clip.mp4);
    expect(seconds.stts).toBeCloseTo(3.15, 3);
    expect(seconds.mdhd).toBeCloseTo(3.15, 3);
  });

  it('crops an odd-sized frame to even dimensions instead of scaling it', async () => {
    await new WebCodecsClipEncoder().encode(frames([odd, 100], [odd, 100]));
    const cropped = FakeVideoFrame.all.filter((f) => f.visibleRect?.width === 64);
    expect(cropped.length).toBeGreaterThan(0);
    expect(cropped[0]!.visibleRect).toEqual({ x: 0, y: 0, width: 64, height: 36 });
  });

  it('letterboxes through a canvas when a frame does not fill the clip', async () => {
    await new WebCodecsClipEncoder().encode(frames([portrait, 500], [landscape, 500]));
    // Portrait 33×51 → 32×50 fitted into 64×36: 22×36, centred at x = 20.
    expect(drawn).toEqual([
      [0, 0, 32, 50, 20, 0, 22, 36],
      [0, 0, 64, 36, 0, 0, 64, 36],
    ]);
    expect(FakeVideoEncoder.instances[0]!.encoded.map((e) => e.format)).toEqual(['BGRX', 'BGRX', 'BGRX']);
  });

  it('redoes the clip through a canvas when a frame does not decode to I420', async () => {
    vi.spyOn(console, 'info').mockImplementation(() => undefined);
    decodedFormat = 'BGRX';
    const clip = await new WebCodecsClipEncoder().encode(frames([landscape, 500], [landscape, 500]));
    expect(FakeVideoEncoder.instances).toHaveLength(2);
    expect(FakeVideoEncoder.instances.every((e) => e.state === 'closed')).toBe(true);
    expect(drawn).toHaveLength(2);
    expect(clip.encoder).toBe('webcodecs/avc1.42001e');
    expect(FakeVideoFrame.all.every((frame) => frame.closed)).toBe(true);
  });

  it('never lets more than MAX_ENCODE_QUEUE frames wait in the encoder', async () => {
    await new WebCodecsClipEncoder().encode(frames(...Array.from({ length: 20 }, (): [Uint8Array, number] => [landscape, 40])));
    expect(FakeVideoEncoder.instances[0]!.maxQueue).toBe(MAX_ENCODE_QUEUE);
    expect(FakeVideoEncoder.instances[0]!.encoded).toHaveLength(21);
  });

  it('rejects with the encoder’s own error and closes everything', async () => {
    FakeVideoEncoder.failAt = 1;
    const encoder = new WebCodecsClipEncoder();
    await expect(encoder.encode(frames(...Array.from({ length: 8 }, (): [Uint8Array, number] => [landscape, 40])))).rejects.toThrow('the codec crashed');
    expect(FakeVideoFrame.all.every((frame) => frame.closed)).toBe(true);
    // The next clip gets a fresh encoder.
    FakeVideoEncoder.failAt = -1;
    await expect(encoder.encode(frames([landscape, 40]))).resolves.toMatchObject({ durationSeconds: 0.04 });
  });

  it('rejects with the muxer’s error when the encoder gives no decoder config, and closes everything', async () => {
    FakeVideoEncoder.decoderConfig = null;
    const encoder = new WebCodecsClipEncoder();
    await expect(encoder.encode(frames(...Array.from({ length: 8 }, (): [Uint8Array, number] => [landscape, 40])))).rejects.toThrow(/Video chunk metadata must be provided/);
    expect(FakeVideoEncoder.instances[0]!.state).toBe('closed');
    expect(FakeVideoFrame.all.every((frame) => frame.closed)).toBe(true);
  });

  it('gives up after its budget and closes the encoder', async () => {
    // An encoder that never answers: its queue never drains.
    vi.spyOn(FakeVideoEncoder.prototype, 'flush').mockImplementation(() => new Promise(() => undefined));
    const encoder = new WebCodecsClipEncoder({ timeoutMs: () => 50 });
    await expect(encoder.encode(frames([landscape, 40]))).rejects.toThrow(/timed out after 50 ms/);
    expect(FakeVideoEncoder.instances[0]!.state).toBe('closed');
  });

  it('warms up by encoding one frame at 1280×720', async () => {
    FakeVideoEncoder.supported = ['avc1.42001f'];
    await new WebCodecsClipEncoder().warmup();
    const [encoder] = FakeVideoEncoder.instances;
    expect(encoder!.config).toMatchObject({ codec: 'avc1.42001f', width: 1280, height: 720 });
    expect(encoder!.encoded).toHaveLength(1);
    expect(encoder!.state).toBe('closed');
  });
});

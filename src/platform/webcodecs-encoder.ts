import { avcCodecCandidates, videoEncoderConfig } from '../clip/avc-config';
import { WARMUP_SIZE } from '../clip/encoder-choice';
import { readJpegSize, type Size } from '../shared/jpeg-size';
import { fillsOutput, letterbox } from '../clip/letterbox';
import { clipOutputSize } from '../clip/output-size';
import type { ClipFrame, EncodedClip, OptionalClipEncoder } from '../clip/ports';
import { planVideoSamples, samplesByFrame } from '../clip/sample-plan';
import { createSerialQueue } from '../clip/serial-queue';
import { Mp4VideoWriter } from './mp4-video-writer';
import { withTimeout } from '../shared/timeout';

/**
 * Frames handed to the encoder and not yet encoded. Decoding runs ahead of encoding only this far, so a
 * slow encoder cannot pile up decoded pictures (1.4 MB each at 1280×720).
 */
export const MAX_ENCODE_QUEUE = 4;

/** Knobs for tests; the defaults are for the extension. */
export interface WebCodecsEncoderOptions {
  /** Budget for one clip; past it the encoder is closed and the clip fails (and falls back to ffmpeg.wasm). */
  timeoutMs?: (frameCount: number) => number;
}

/** Turns JPEG bytes into an untimed picture of the clip's size (the caller stamps and closes it). */
interface PictureSource {
  picture(jpeg: Uint8Array): Promise<VideoFrame>;
}

/** A frame the direct path cannot pass on as is; the clip is redone through the canvas. */
class NotDirectError extends Error {}

const even = (value: number) => Math.max(2, value - (value % 2));

/**
 * The fast path, for clips whose frames all fill the output (same aspect ratio): `ImageDecoder` gives the
 * JPEG's own YUV 4:2:0 planes, which go to the encoder without an RGB round trip (120 frames of
 * 1280×720: 0.65 s, against 1.3 s through a canvas). The encoder scales a frame of another size itself.
 * The encoder takes its colour description from the frames, so they must all share one; a frame that
 * decodes otherwise (not I420, another colour space) sends the clip to the canvas path.
 */
function decodedPictures(): PictureSource {
  let colourSpace: string | null = null;
  return {
    async picture(jpeg) {
      const decoder = new ImageDecoder({ data: jpeg, type: 'image/jpeg' });
      let image: VideoFrame;
      try {
        ({ image } = await decoder.decode());
      } finally {
        decoder.close();
      }
      const space = JSON.stringify(image.colorSpace.toJSON());
      colourSpace ??= space;
      if (image.format !== 'I420' || space !== colourSpace) {
        image.close();
        throw new NotDirectError(`a frame decoded as ${image.format ?? 'opaque'} ${space}`);
      }
      const { width, height } = image.visibleRect ?? { width: image.codedWidth, height: image.codedHeight };
      if (width % 2 === 0 && height % 2 === 0) return image;
      // Drop an odd last row/column, as the ffmpeg path does, rather than let the encoder resample.
      const cropped = new VideoFrame(image, { visibleRect: { x: 0, y: 0, width: even(width), height: even(height) } });
      image.close();
      return cropped;
    },
  };
}

/** The general path: each frame drawn letterboxed onto a black canvas of the output size. */
function canvasPictures(size: Size): PictureSource {
  const canvas = new OffscreenCanvas(size.width, size.height);
  const context = canvas.getContext('2d', { alpha: false });
  if (!context) throw new Error('OffscreenCanvas has no 2d context');
  return {
    async picture(jpeg) {
      const bitmap = await createImageBitmap(new Blob([jpeg as Uint8Array<ArrayBuffer>], { type: 'image/jpeg' }));
      try {
        const r = letterbox({ width: bitmap.width, height: bitmap.height }, size);
        context.fillStyle = 'black';
        context.fillRect(0, 0, size.width, size.height);
        context.drawImage(bitmap, r.sx, r.sy, r.sw, r.sh, r.dx, r.dy, r.dw, r.dh);
      } finally {
        bitmap.close();
      }
      // The VideoFrame copies the canvas now, so the next frame can be drawn while this one waits.
      return new VideoFrame(canvas, { timestamp: 0, alpha: 'discard' });
    },
  };
}

/** Waits until the encoder has room (see MAX_ENCODE_QUEUE). */
async function roomInQueue(encoder: VideoEncoder): Promise<void> {
  while (encoder.state === 'configured' && encoder.encodeQueueSize >= MAX_ENCODE_QUEUE) {
    await new Promise<void>((resolve) => {
      // 'dequeue' (Chrome 106+) says when; the timer keeps a browser without it from waiting forever.
      encoder.addEventListener('dequeue', () => resolve(), { once: true });
      setTimeout(resolve, 20);
    });
  }
}

const toError = (error: unknown) => (error instanceof Error ? error : new Error(String(error)));

/**
 * `ClipEncoder` over WebCodecs: JPEG → `VideoFrame` → `VideoEncoder` (H.264) → mediabunny's mp4 muxer, in the
 * offscreen document. Each frame keeps its real duration (see `planVideoSamples`). Decoding the next
 * frame overlaps the encoder's work on the previous ones; one clip at a time.
 */
export class WebCodecsClipEncoder implements OptionalClipEncoder {
  readonly name = 'webcodecs';
  readonly #timeoutMs: (frameCount: number) => number;
  readonly #codecs = new Map<string, Promise<string | null>>();
  readonly #enqueue = createSerialQueue();

  constructor(options: WebCodecsEncoderOptions = {}) {
    this.#timeoutMs = options.timeoutMs ?? ((frameCount) => 10_000 + 100 * frameCount);
  }

  async unsupportedReason(size: Size): Promise<string | null> {
    // A service worker has neither; an offscreen document has both (Chromium 94+).
    if (typeof VideoEncoder === 'undefined' || typeof VideoFrame === 'undefined') return 'no VideoEncoder in this context';
    if (typeof OffscreenCanvas === 'undefined') return 'no OffscreenCanvas in this context';
    return (await this.#codecFor(size)) ? null : `no H.264 encoder for ${size.width}×${size.height}`;
  }

  /** Opens an encoder once: the first one in a document loads the codec (OpenH264) and costs the most. */
  warmup(): Promise<void> {
    return this.#enqueue(async () => {
      const codec = await this.#codecFor(WARMUP_SIZE);
      if (!codec) throw new Error(`no H.264 encoder for ${WARMUP_SIZE.width}×${WARMUP_SIZE.height}`);
      const { width, height } = WARMUP_SIZE;
      let failure: unknown = null;
      const encoder = new VideoEncoder({ output: () => undefined, error: (error) => (failure ??= error) });
      try {
        encoder.configure(videoEncoderConfig(codec, WARMUP_SIZE));
        const black = new VideoFrame(new Uint8Array((width * height * 3) / 2), { format: 'I420', codedWidth: width, codedHeight: height, timestamp: 0 });
        try {
          encoder.encode(black, { keyFrame: true });
        } finally {
          black.close();
        }
        await encoder.flush();
      } catch (error) {
        throw toError(failure ?? error);
      } finally {
        if (encoder.state !== 'closed') encoder.close();
      }
    });
  }

  encode(frames: readonly ClipFrame[]): Promise<EncodedClip> {
    return this.#enqueue(() => this.#encodeNow(frames));
  }

  /** The first codec string the browser accepts for this size (cached: the answer does not change). */
  #codecFor(size: Size): Promise<string | null> {
    const key = `${size.width}x${size.height}`;
    let found = this.#codecs.get(key);
    if (!found) {
      found = (async () => {
        for (const codec of avcCodecCandidates(size)) {
          // An invalid config throws instead of answering; either way it is not this one.
          const support = await VideoEncoder.isConfigSupported(videoEncoderConfig(codec, size)).catch(() => null);
          if (support?.supported) return codec;
        }
        return null;
      })();
      this.#codecs.set(key, found);
    }
    return found;
  }

  async #encodeNow(frames: readonly ClipFrame[]): Promise<EncodedClip> {
    const size = clipOutputSize(frames);
    const codec = await this.#codecFor(size);
    if (!codec) throw new Error(`no H.264 encoder for ${size.width}×${size.height}`);
    const direct =
      typeof ImageDecoder !== 'undefined' &&
      frames.every((frame) => {
        const frameSize = readJpegSize(frame.jpeg);
        return frameSize !== null && fillsOutput(frameSize, size);
      });
    if (direct) {
      try {
        return await this.#encodeFrom(decodedPictures(), frames, size, codec);
      } catch (error) {
        if (!(error instanceof NotDirectError)) throw error;
        console.info(`[afr] ${error.message}: encoding the clip through a canvas`);
      }
    }
    return this.#encodeFrom(canvasPictures(size), frames, size, codec);
  }

  async #encodeFrom(source: PictureSource, frames: readonly ClipFrame[], size: Size, codec: string): Promise<EncodedClip> {
    const durations = frames.map((frame) => frame.durationMs);
    const samples = planVideoSamples(durations);
    const byFrame = samplesByFrame(samples, frames.length);
    // Encoders pass a frame's duration on to its chunk, but the spec lets it be null: keep our own.
    const durationAt = new Map(samples.map((sample) => [sample.timestampUs, sample.durationUs]));
    const writer = new Mp4VideoWriter(size);
    let failure: unknown = null;
    const encoder = new VideoEncoder({
      output: (chunk, meta) => {
        try {
          writer.add(chunk, meta, chunk.timestamp, durationAt.get(chunk.timestamp) ?? chunk.duration ?? 0);
        } catch (error) {
          failure ??= error;
        }
      },
      error: (error) => (failure ??= error),
    });

    const run = async () => {
      encoder.configure(videoEncoderConfig(codec, size));
      for (const [index, frame] of frames.entries()) {
        if (failure || writer.failure) break;
        const picture = await source.picture(frame.jpeg);
        try {
          for (const sample of byFrame[index] ?? []) {
            await roomInQueue(encoder);
            const stamped = new VideoFrame(picture, { timestamp: sample.timestampUs, duration: sample.durationUs });
            try {
              encoder.encode(stamped, { keyFrame: sample.keyFrame });
            } finally {
              stamped.close();
            }
          }
        } finally {
          picture.close();
        }
      }
      if (!failure) await encoder.flush();
    };

    try {
      await withTimeout(run(), this.#timeoutMs(frames.length), 'WebCodecs encode', () => encoder.close());
    } catch (error) {
      void writer.cancel();
      // The encoder's own error (reported through its callback) explains more than the InvalidStateError that follows.
      throw error instanceof NotDirectError ? error : toError(failure ?? error);
    } finally {
      if (encoder.state !== 'closed') encoder.close();
    }
    if (failure) {
      void writer.cancel();
      throw toError(failure);
    }
    const mp4 = await writer.finish();
    if (writer.written !== samples.length) console.warn(`[afr] the encoder returned ${writer.written} of ${samples.length} frames`);
    const seconds = durations.reduce((sum, ms) => sum + ms, 0) / 1000;
    return { mp4, durationSeconds: seconds, encoder: `webcodecs/${codec}` };
  }
}

import type { Size } from '../shared/jpeg-size';
import { clipOutputSize } from './output-size';
import type { ClipEncoder, ClipFrame, EncodedClip, OptionalClipEncoder } from './ports';
import { errorMessage } from '../shared/error-message';

/** Which encoder the offscreen document uses: WebCodecs with ffmpeg.wasm as the fallback, or one of them only. */
export type EncoderPreference = 'auto' | 'webcodecs' | 'ffmpeg';

/**
 * Reads `?encoder=webcodecs|ffmpeg` from the offscreen document's URL. Only tests and benchmarks set it,
 * to exercise one encoder without a fallback hiding its failures; the extension itself opens the document
 * without a query, and anything unknown means `auto`.
 */
export function readEncoderPreference(search: string): EncoderPreference {
  const value = new URLSearchParams(search).get('encoder');
  return value === 'webcodecs' || value === 'ffmpeg' ? value : 'auto';
}

/** The size the encoder is warmed up for: the recorder's usual viewport. */
export const WARMUP_SIZE: Size = { width: 1280, height: 720 };

/** The two encoders and which of them the document may use. */
export interface ChoosingEncoderOptions {
  preference: EncoderPreference;
  webcodecs: OptionalClipEncoder;
  ffmpeg: ClipEncoder;
  /** Where a WebCodecs failure is reported before falling back (console.warn in the extension). */
  warn?: (message: string, error?: unknown) => void;
}


/**
 * Encodes each clip with WebCodecs when this browser supports H.264 at the clip's size (several times
 * faster than ffmpeg.wasm), and with ffmpeg.wasm when it does not, or when the WebCodecs encode fails.
 * The result's `encoder` says which ran, and why the fallback did.
 */
export class ChoosingClipEncoder implements ClipEncoder {
  readonly #options: ChoosingEncoderOptions;
  readonly #warn: (message: string, error?: unknown) => void;
  #name: string;

  constructor(options: ChoosingEncoderOptions) {
    this.#options = options;
    this.#warn = options.warn ?? ((message, error) => console.warn(message, error));
    const { preference, webcodecs, ffmpeg } = options;
    this.#name = preference === 'ffmpeg' ? ffmpeg.name : preference === 'webcodecs' ? webcodecs.name : `${webcodecs.name}, else ${ffmpeg.name}`;
  }

  /** The encoder the last warmup or clip used (before any: what may run). */
  get name(): string {
    return this.#name;
  }

  /** Loads the encoder the next clip will most likely use: WebCodecs if it supports `WARMUP_SIZE`, else ffmpeg.wasm. */
  async warmup(): Promise<void> {
    const { preference, webcodecs } = this.#options;
    if (preference === 'ffmpeg') return this.#warmFfmpeg();
    const reason = await webcodecs.unsupportedReason(WARMUP_SIZE);
    if (reason === null) {
      try {
        await webcodecs.warmup?.();
        this.#name = webcodecs.name;
        return;
      } catch (error) {
        if (preference === 'webcodecs') throw error;
        this.#warn('[afr] WebCodecs warm-up failed; warming ffmpeg.wasm up instead', error);
        return this.#warmFfmpeg(`webcodecs failed: ${errorMessage(error)}`);
      }
    }
    if (preference === 'webcodecs') throw new Error(`webcodecs unsupported: ${reason}`);
    return this.#warmFfmpeg(`webcodecs unsupported: ${reason}`);
  }

  async encode(frames: readonly ClipFrame[]): Promise<EncodedClip> {
    const { preference, webcodecs } = this.#options;
    if (preference === 'ffmpeg') return this.#encodeWithFfmpeg(frames);
    const reason = await webcodecs.unsupportedReason(clipOutputSize(frames));
    if (reason !== null) {
      if (preference === 'webcodecs') throw new Error(`webcodecs unsupported: ${reason}`);
      return this.#encodeWithFfmpeg(frames, `webcodecs unsupported: ${reason}`);
    }
    try {
      const clip = await webcodecs.encode(frames);
      this.#name = clip.encoder ?? webcodecs.name;
      return { ...clip, encoder: this.#name };
    } catch (error) {
      if (preference === 'webcodecs') throw error;
      this.#warn('[afr] WebCodecs could not encode the clip; falling back to ffmpeg.wasm', error);
      return this.#encodeWithFfmpeg(frames, `webcodecs failed: ${errorMessage(error)}`);
    }
  }

  async #warmFfmpeg(why?: string): Promise<void> {
    const { ffmpeg } = this.#options;
    await ffmpeg.warmup?.();
    this.#name = why ? `${ffmpeg.name} (${why})` : ffmpeg.name;
  }

  async #encodeWithFfmpeg(frames: readonly ClipFrame[], why?: string): Promise<EncodedClip> {
    const { ffmpeg } = this.#options;
    let clip: EncodedClip;
    try {
      clip = await ffmpeg.encode(frames);
    } catch (error) {
      // Both failed: say so, or the WebCodecs failure would be lost behind the fallback's.
      if (why) throw new Error(`${why}; ${ffmpeg.name} failed: ${errorMessage(error)}`);
      throw error;
    }
    const name = clip.encoder ?? ffmpeg.name;
    this.#name = why ? `${name} (${why})` : name;
    return { ...clip, encoder: this.#name };
  }
}

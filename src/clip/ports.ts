import type { Size } from '../shared/jpeg-size';

/** One stored screenshot and how long it stayed on screen. */
export interface ClipFrame {
  jpeg: Uint8Array;
  durationMs: number;
}

/** An encoded clip. */
export interface EncodedClip {
  mp4: Uint8Array;
  /** How long the clip plays. */
  durationSeconds: number;
  /**
   * What actually made it, when that says more than the encoder's `name`: the codec WebCodecs settled on
   * (`webcodecs/avc1.42001f`), or the fallback and why (`ffmpeg.wasm/libx264-ultrafast (webcodecs failed: …)`).
   */
  encoder?: string;
}

/**
 * Turns JPEG frames into an mp4: WebCodecs `VideoEncoder` + mediabunny (`src/platform/webcodecs-encoder.ts`)
 * where the browser can, ffmpeg.wasm (`src/platform/ffmpeg-encoder.ts`) otherwise; `ChoosingClipEncoder`
 * picks one per clip.
 */
export interface ClipEncoder {
  /** Short name reported with each clip, e.g. `ffmpeg.wasm/libx264-ultrafast`. */
  readonly name: string;
  /** Loads whatever the encoder needs ahead of the first clip; optional. */
  warmup?(): Promise<void>;
  encode(frames: readonly ClipFrame[]): Promise<EncodedClip>;
}

/** An encoder this browser may lack, or lack for some frame sizes (hardware and codec support vary). */
export interface OptionalClipEncoder extends ClipEncoder {
  /** Null when it can encode a clip of `size` here; otherwise why not, in a few words. */
  unsupportedReason(size: Size): Promise<string | null>;
}

/** Where the offscreen document reads frames and leaves finished clips (IndexedDB in the extension). */
export interface ClipStorage {
  readJpeg(key: number): Promise<Uint8Array | undefined>;
  writeClip(jobId: string, mp4: Uint8Array): Promise<void>;
}

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
}

/**
 * Turns JPEG frames into an mp4. ffmpeg.wasm implements it today
 * (`src/platform/ffmpeg-encoder.ts`); a WebCodecs `VideoEncoder` + muxer can replace it.
 */
export interface ClipEncoder {
  /** Short name reported with each clip, e.g. `ffmpeg.wasm/libx264-ultrafast`. */
  readonly name: string;
  /** Loads whatever the encoder needs ahead of the first clip; optional. */
  warmup?(): Promise<void>;
  encode(frames: readonly ClipFrame[]): Promise<EncodedClip>;
}

/** Where the offscreen document reads frames and leaves finished clips (IndexedDB in the extension). */
export interface ClipStorage {
  readJpeg(key: number): Promise<Uint8Array | undefined>;
  writeClip(jobId: string, mp4: Uint8Array): Promise<void>;
}

import type { FrameViewport } from '../../schemas/manifest';

/** What the recorder knows about a stored frame without reading its pixels. */
export interface FrameMeta {
  /** Store key, increasing in insertion order. */
  key: number;
  tabId: number;
  windowId: number;
  url: string | null;
  /** Capture time, milliseconds since the Unix epoch. */
  ts: number;
  /** JPEG size in bytes. */
  size: number;
  width: number;
  height: number;
  /** Sensitive regions filled in this frame before it was stored. */
  masked?: number;
  /** How the frame was taken (frames stored before this field existed: `visibleTab`). */
  source?: FrameSource;
  /** The viewport the frame shows (CSS px), when the recorder knew it (frames stored before this field existed: none). */
  viewport?: FrameViewport;
}

/** `captureVisibleTab`, a CDP screencast frame, or a CDP screenshot of a tab that is not visible. */
export type FrameSource = 'visibleTab' | 'screencast' | 'screenshot';

export type NewFrame = Omit<FrameMeta, 'key'>;

/** Persistent frame storage: metadata and JPEG bytes, addressed by key. */
export interface FrameStore {
  add(frame: NewFrame, jpeg: Uint8Array): Promise<FrameMeta>;
  /** All frame metadata, oldest first. */
  listMeta(): Promise<FrameMeta[]>;
  readJpeg(key: number): Promise<Uint8Array | undefined>;
  delete(keys: readonly number[]): Promise<void>;
}

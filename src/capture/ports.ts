import type { FrameViewport } from '../../schemas/manifest';
import type { FrameShown } from './mask-plan';
import { errorMessage } from '../shared/error-message';

/** A tab the recorder can capture: the active tab of a normal, non-minimized window. */
export interface CaptureTarget {
  tabId: number;
  windowId: number;
  url: string | null;
}

export interface CapturedImage {
  jpeg: Uint8Array;
  width: number;
  height: number;
  /** Sensitive regions filled in it (set by the frame filter). */
  masked?: number;
  /** The tab's surface (DIPs) when it was taken, as the capturer knows it: where the page's regions land (see `FrameShown`). */
  shown?: FrameShown;
  /** The viewport it shows (CSS px), set by the frame filter from the page's report and the surface. */
  viewport?: FrameViewport;
}

/** The browser side of frame capture (`chrome.tabs.captureVisibleTab` in production). */
export interface Capturer {
  listTargets(): Promise<CaptureTarget[]>;
  capture(target: CaptureTarget, jpegQuality: number): Promise<CapturedImage>;
}

/** The error text Chrome gives when the 2-calls-per-second capture quota is exceeded. */
export const QUOTA_ERROR_MARKER = 'MAX_CAPTURE_VISIBLE_TAB_CALLS_PER_SECOND';

export function isQuotaError(error: unknown): boolean {
  return errorMessage(error).includes(QUOTA_ERROR_MARKER);
}

import type { FrameShown } from './mask-plan';

/** A screencast frame's own time is trusted when it is at most this old on arrival (clocks agree). */
export const MAX_FRAME_AGE_MS = 5_000;

/** What a `Page.screencastFrame` event carries, as far as it could be read. */
export interface ScreencastFrame {
  /** To acknowledge the frame with; absent when the event has none. */
  sessionId: number | undefined;
  /** The JPEG (base64); absent when the event has none (nothing to store). */
  data: string | undefined;
  /** The CSS size of what it shows and its scroll; absent when its metadata does not say. */
  shown: FrameShown | undefined;
  /** When its picture was drawn, or `now` when that is unknown or not to be trusted. */
  takenAt: number;
}

/**
 * Reads a `Page.screencastFrame` event's parameters, received at `now`: what the frame shows and
 * when it was drawn, from its metadata, keeping only values of the expected types.
 */
export function parseScreencastFrame(params: Record<string, unknown> | undefined, now: number): ScreencastFrame {
  const sessionId = typeof params?.sessionId === 'number' ? params.sessionId : undefined;
  const data = typeof params?.data === 'string' ? params.data : undefined;
  // What the frame shows, in CSS px: the window's surface, which may be the top of an emulated viewport.
  const meta = params?.metadata as
    | { deviceWidth?: unknown; deviceHeight?: unknown; scrollOffsetX?: unknown; scrollOffsetY?: unknown; pageScaleFactor?: unknown; timestamp?: unknown }
    | undefined;
  const scroll =
    typeof meta?.scrollOffsetX === 'number' && typeof meta.scrollOffsetY === 'number' && Number.isFinite(meta.scrollOffsetX) && Number.isFinite(meta.scrollOffsetY)
      ? { scroll: { x: meta.scrollOffsetX, y: meta.scrollOffsetY } }
      : {};
  // The page scale it was drawn at (a pinch zoom, a mobile page zoomed out): checked against the report's.
  const pageScale = typeof meta?.pageScaleFactor === 'number' && meta.pageScaleFactor > 0 && Number.isFinite(meta.pageScaleFactor) ? { pageScale: meta.pageScaleFactor } : {};
  const shown =
    typeof meta?.deviceWidth === 'number' && typeof meta.deviceHeight === 'number' && meta.deviceWidth > 0 && meta.deviceHeight > 0
      ? { width: meta.deviceWidth, height: meta.deviceHeight, ...scroll, ...pageScale }
      : undefined;
  // When the frame was drawn (seconds since the epoch): it may have taken a while to arrive.
  const drawnAt = typeof meta?.timestamp === 'number' ? meta.timestamp * 1000 : NaN;
  const takenAt = drawnAt <= now && now - drawnAt < MAX_FRAME_AGE_MS ? drawnAt : now;
  return { sessionId, data, shown, takenAt };
}

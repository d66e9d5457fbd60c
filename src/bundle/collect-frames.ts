import type { FrameViewport } from '../../schemas/manifest';
import type { CaptureStats } from '../capture/capture-loop';
import type { FrameMeta, FrameSource } from '../ring/ports';
import { frameDurations } from './frame-durations';
import { mergeRepeatedFrames, type MergedFrame } from './repeated-frames';

/** A frame as the bundle holds it: its picture, its time on screen, what it shows. */
export interface CollectedFrame {
  key: number;
  jpeg: Uint8Array;
  ts: number;
  durationMs: number;
  width: number;
  height: number;
  masked: number;
  source: FrameSource;
  viewport?: FrameViewport;
}

/** The bundle's frames in time order, a run of identical ones as one entry, and what went missing. */
export interface CollectedFrames {
  frames: MergedFrame<CollectedFrame>[];
  warnings: string[];
}

/**
 * The frames of the window as the bundle holds them: `inWindow` (the tab's frames of the window, time
 * order, the one from before it first) with `jpegs[i]` the picture read for `inWindow[i]` (none: it
 * was evicted meanwhile). The frame from before the window (the screen at its start) counts from the
 * window's start; a frame identical to the one before it is stored once, that entry's duration
 * covering both.
 */
export function collectFrames(
  inWindow: readonly FrameMeta[],
  jpegs: readonly (Uint8Array | undefined)[],
  window: { start: number; end: number },
): CollectedFrames {
  const warnings: string[] = [];
  const durations = frameDurations(inWindow.map((f) => Math.max(f.ts, window.start)), window.end);
  const stored = inWindow.flatMap((f, i): CollectedFrame[] => {
    const jpeg = jpegs[i];
    if (!jpeg) {
      warnings.push(`frame ${f.key} was evicted while the bundle was being packaged`);
      return [];
    }
    return [{ key: f.key, jpeg, ts: f.ts, durationMs: durations[i]!, width: f.width, height: f.height, masked: f.masked ?? 0, source: f.source ?? 'visibleTab', ...(f.viewport ? { viewport: f.viewport } : {}) }];
  });
  return { frames: mergeRepeatedFrames(stored), warnings };
}

/**
 * Why a bundle has no frame of its tab: frames dropped (named by reason) when there were any, else
 * none was captured at all (the tab was neither visible nor screencast).
 */
export function noFramesWarning(stats: Pick<CaptureStats, 'dropped' | 'droppedByReason'>): string {
  const reasons = Object.entries(stats.droppedByReason ?? {}).filter(([, n]) => n > 0);
  if (stats.dropped > 0) {
    const named = reasons.length ? `: ${reasons.map(([reason, n]) => `${reason} ${n}`).join(', ')}` : '';
    return `no frames of this tab were stored in the buffer window; ${stats.dropped} frames were dropped since the recorder started${named}`;
  }
  return 'no frames of this tab were captured in the buffer window (was it the visible tab?)';
}

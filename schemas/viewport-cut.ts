import { z } from 'zod';

/**
 * Chromium's switch that keeps the "started debugging this browser" infobar out of the window. The
 * recorder's debugger session raises it, and with the window's strip it takes 87–143 px of a window
 * that Playwright (and Puppeteer) size to the emulated viewport: the surface the recorder captures is
 * then the top of the page's viewport only (1280×577 of 1280×720). Launched with it, frames show it all.
 */
export const SILENT_DEBUGGER_SWITCH = '--silent-debugger-extension-api';

/** How many CSS px a frame may show less of the viewport each way and still show it all (rounding). */
export const CUT_TOLERANCE_CSS_PX = 2;

/** The part of the page's layout viewport a frame shows, from its top left (CSS px). */
export const ShownPartSchema = z.object({ width: z.number().finite().nonnegative(), height: z.number().finite().nonnegative() }).strict();
export type ShownPart = z.infer<typeof ShownPartSchema>;

/** A frame that shows less than the page's layout viewport: the viewport and the part shown (CSS px). */
export interface ViewportCut {
  viewport: { width: number; height: number };
  shown: ShownPart;
}

/** What a frame says of itself: its picture's size and, when the recorder knew it, the viewport it shows. */
export interface FrameOfViewport {
  width: number;
  height: number;
  viewport?: { width: number; height: number; image_scale?: number; shown?: ShownPart } | undefined;
}

/**
 * The part of the page's layout viewport (`innerWidth`×`innerHeight`) a picture of `imageWidth`×
 * `imageHeight` px shows, from its top left (CSS px): its size over the image px per CSS px
 * (`imageScale`, else the picture's width over the viewport's), at most the viewport. Null when it
 * shows it all (within `CUT_TOLERANCE_CSS_PX` each way).
 * @example shownPart({ width: 1280, height: 720 }, 1280, 577, 1) // { width: 1280, height: 577 }
 */
export function shownPart(viewport: { width: number; height: number }, imageWidth: number, imageHeight: number, imageScale?: number): ShownPart | null {
  const usable = (n: number | undefined): n is number => n !== undefined && Number.isFinite(n) && n > 0;
  if (!usable(viewport.width) || !usable(viewport.height) || !usable(imageWidth) || !usable(imageHeight)) return null;
  const scale = usable(imageScale) ? imageScale : imageWidth / viewport.width;
  const width = Math.min(viewport.width, round(imageWidth / scale));
  const height = Math.min(viewport.height, round(imageHeight / scale));
  const cut = width < viewport.width - CUT_TOLERANCE_CSS_PX || height < viewport.height - CUT_TOLERANCE_CSS_PX;
  return cut ? { width, height } : null;
}

/**
 * Whether a frame shows less than the page's viewport, and how much: its `viewport.shown` when the
 * recorder said it, else worked out from the picture's size and `image_scale` (bundles written before
 * frames said it). Null when it shows it all, or when the frame does not say its viewport.
 */
export function viewportCutOf(frame: FrameOfViewport): ViewportCut | null {
  const v = frame.viewport;
  if (!v) return null;
  const shown = v.shown ?? shownPart(v, frame.width, frame.height, v.image_scale);
  return shown ? { viewport: { width: v.width, height: v.height }, shown } : null;
}

/** Frames cut short among some frames: how many, and the latest one's cut (it says the state now). */
export interface ViewportCuts<F> {
  cutFrames: number;
  frames: number;
  latest: { frame: F; cut: ViewportCut };
}

/**
 * The frames (oldest first) that show less than their page's viewport: how many of all, and the
 * latest of them. Null when none does.
 */
export function viewportCutsOf<F extends FrameOfViewport>(frames: readonly F[]): ViewportCuts<F> | null {
  let cutFrames = 0;
  let latest: ViewportCuts<F>['latest'] | null = null;
  for (const frame of frames) {
    const cut = viewportCutOf(frame);
    if (!cut) continue;
    cutFrames++;
    latest = { frame, cut };
  }
  return latest ? { cutFrames, frames: frames.length, latest } : null;
}

/**
 * What to tell a person about frames cut short: what is missing and how to fix it, naming the switch.
 * @example viewportCutWarning({ viewport: { width: 1280, height: 720 }, shown: { width: 1280, height: 577 } }, 9, 9)
 * // '9 of 9 frames show 1280×577 of the page's 1280×720 viewport (CSS px): the bottom 143 px are not recorded. …'
 */
export function viewportCutWarning(cut: ViewportCut, cutFrames: number, frames: number): string {
  const { viewport, shown } = cut;
  const missing = [
    shown.height < viewport.height ? `the bottom ${round(viewport.height - shown.height)} px` : '',
    shown.width < viewport.width ? `the right ${round(viewport.width - shown.width)} px` : '',
  ].filter(Boolean);
  return (
    `${cutFrames} of ${frames} frames show ${size(shown)} of the page's ${size(viewport)} viewport (CSS px): ` +
    `${missing.join(' and ')} are not recorded. ` +
    `The window is smaller than the viewport the driver emulates (the "started debugging this browser" infobar takes its bottom): ` +
    `launch the browser with ${SILENT_DEBUGGER_SWITCH}.`
  );
}

function size(s: { width: number; height: number }): string {
  return `${round(s.width)}×${round(s.height)}`;
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

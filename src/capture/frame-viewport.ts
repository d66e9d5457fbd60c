import type { FrameViewport } from '../../schemas/manifest';
import type { SensitiveRectsMessage } from '../../schemas/messages';
import { shownPart } from '../../schemas/viewport-cut';
import type { FrameShown } from './mask-plan';
import { hasSurfaceShape } from './surface-shape';

/** What is known of a frame when it is stored: its picture's size and the surface it shows. */
export interface FrameFacts {
  imageWidth: number;
  imageHeight: number;
  /**
   * The tab's surface the picture shows (DIPs): a screencast frame's metadata (with its scroll and
   * page scale), the tab's size for `captureVisibleTab`, the tab's last one for a CDP screenshot.
   */
  surface?: FrameShown;
  /** The tab's browser zoom (1 = 100 %), when known. */
  zoom?: number;
}

/**
 * The viewport a frame shows (CSS px), for mapping a step's target onto it: the page's viewport and
 * device pixel ratio from its report in force when the frame was taken (the content script measures
 * the targets against the same viewport), and from the frame itself, when it says its surface and the
 * zoom is known, how many image px it draws per CSS px (see `fitOf` in `mask-plan.ts` for the
 * measurements: image px = CSS px × image px per DIP × page scale × zoom, whatever viewport the
 * driver emulates). Scroll: the frame's own (a screencast frame's, DIPs, made CSS px by the zoom),
 * else the report's when it has regions (a report without any is not sent again for a scroll).
 * `shown`: the part of the viewport the picture shows, when that is less than all of it (a window
 * smaller than the emulated viewport: the debugger's infobar took its bottom).
 * Undefined without a report: the page's viewport is then unknown.
 * @example frameViewport(report, { imageWidth: 2560, imageHeight: 1440, surface: { width: 1280, height: 720 }, zoom: 1 }) // { width: 1280, height: 720, device_pixel_ratio: 2, image_scale: 2 }
 */
export function frameViewport(report: SensitiveRectsMessage | undefined, facts: FrameFacts): FrameViewport | undefined {
  if (!report) return undefined;
  const viewport: FrameViewport = { width: report.viewport.width, height: report.viewport.height, device_pixel_ratio: report.device_pixel_ratio };
  const { imageWidth, imageHeight, surface, zoom } = facts;
  const known = surface !== undefined && surface.width > 0 && surface.height > 0 && zoom !== undefined && zoom > 0 && Number.isFinite(zoom);
  if (known && imageWidth > 0) {
    const perDip = imageWidth / surface.width;
    // A picture of another shape than the surface (a screenshot of a window resized since) is not of it.
    if (hasSurfaceShape({ width: imageWidth, height: imageHeight }, surface)) {
      const pageScale = surface.pageScale ?? report.visual_viewport?.scale ?? 1;
      viewport.image_scale = round(perDip * pageScale * zoom, 1e4);
    }
  }
  const shown = shownPart(viewport, imageWidth, imageHeight, viewport.image_scale);
  if (shown) viewport.shown = shown;
  if (known && surface.scroll) viewport.scroll = { x: round(surface.scroll.x / zoom, 100), y: round(surface.scroll.y / zoom, 100) };
  else if (report.scroll && report.rects.length > 0) viewport.scroll = { x: report.scroll.x, y: report.scroll.y };
  return viewport;
}

function round(value: number, per: number): number {
  return Math.round(value * per) / per;
}

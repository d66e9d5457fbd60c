import type { FrameShown } from './mask-plan';

/** Image px a captured picture may differ from the tab's size scaled to it (rounding of the device scale). */
const SHAPE_TOLERANCE_PX = 2;

/**
 * The surface a `captureVisibleTab` picture shows: the tab's size (DIPs), when the picture has its
 * shape; else undefined, and the picture is placed by the page's own viewport. Chromium launched with
 * `--silent-debugger-extension-api` reports the tab as if the "started debugging" infobar still took
 * its place (1280×633 for a 1280×720 picture of Playwright's default viewport): a surface that is not
 * the one the picture shows would have every frame dropped as `viewport-mismatch`.
 * @example tabSurface({ width: 1280, height: 633 }, { width: 1280, height: 720 }) // undefined
 */
export function tabSurface(tab: { width?: number | undefined; height?: number | undefined }, image: { width: number; height: number }): FrameShown | undefined {
  const { width, height } = tab;
  if (!width || !height || !(image.width > 0)) return undefined;
  const perDip = image.width / width;
  if (Math.abs(image.height - height * perDip) > SHAPE_TOLERANCE_PX + perDip) return undefined;
  return { width, height };
}

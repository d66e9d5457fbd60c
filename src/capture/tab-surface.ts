import type { FrameShown } from './mask-plan';
import { hasSurfaceShape } from './surface-shape';

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
  if (!hasSurfaceShape(image, { width, height })) return undefined;
  return { width, height };
}

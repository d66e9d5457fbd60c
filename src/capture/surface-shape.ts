/** Image px a picture may differ from its surface scaled to it (rounding of the device scale), beside one DIP. */
const SURFACE_TOLERANCE_PX = 2;

/**
 * Whether a picture has the shape of the surface (DIPs) it is said to show: its height is the surface's
 * at the picture's image px per DIP (its width over the surface's). A screenshot of a window resized
 * since, or a tab size Chromium reports wrongly, does not.
 * @example hasSurfaceShape({ width: 2560, height: 1440 }, { width: 1280, height: 720 }) // true
 */
export function hasSurfaceShape(image: { width: number; height: number }, surface: { width: number; height: number }): boolean {
  const perDip = image.width / surface.width;
  return Math.abs(image.height - surface.height * perDip) <= SURFACE_TOLERANCE_PX + perDip;
}

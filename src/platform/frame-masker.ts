import type { ImageRect } from '../capture/mask-plan';

/** Fill of a masked region: opaque neutral grey, so nothing under it can be recovered. */
export const MASK_FILL = '#6b7280';
/** A one-pixel darker edge, so a viewer sees that something was masked rather than a grey box of the page. */
export const MASK_EDGE = '#374151';

/**
 * Paints each rect of a JPEG frame opaque and re-encodes it at `quality` (0–100). Runs in the service
 * worker: `createImageBitmap` and `OffscreenCanvas` need no DOM. With no rects, the input is returned
 * as it is (no re-encoding loss).
 * @example const stored = plan.length ? await maskJpeg(image.jpeg, plan, 70) : image.jpeg;
 */
export async function maskJpeg(jpeg: Uint8Array, rects: readonly ImageRect[], quality: number): Promise<Uint8Array> {
  if (!rects.length) return jpeg;
  // TypeScript types a Uint8Array's buffer as possibly shared, which a Blob does not take; ours never is.
  const bitmap = await createImageBitmap(new Blob([jpeg as Uint8Array<ArrayBuffer>], { type: 'image/jpeg' }));
  let canvas: OffscreenCanvas;
  try {
    canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('no 2d context on an OffscreenCanvas');
    ctx.drawImage(bitmap, 0, 0);
    // Edges first, then every inside: where regions overlap, one's edge does not cross another's inside.
    ctx.fillStyle = MASK_EDGE;
    for (const r of rects) ctx.fillRect(r.x, r.y, r.width, r.height);
    ctx.fillStyle = MASK_FILL;
    for (const r of rects) if (r.width > 2 && r.height > 2) ctx.fillRect(r.x + 1, r.y + 1, r.width - 2, r.height - 2);
  } finally {
    bitmap.close();
  }
  const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: Math.min(1, Math.max(0, quality / 100)) });
  return new Uint8Array(await blob.arrayBuffer());
}

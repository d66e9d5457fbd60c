/** Who sent a page command: the frame of the tab (`frameId` 0 is the top one) and its document's origin. */
export interface CommandSender {
  frameId: number | null;
  /** The sending document's origin as the browser reports it (`MessageSender.origin`); null when unknown. */
  frameOrigin?: string | null;
}

/**
 * Whether a frame's page protocol commands speak for the page. The top frame's do; a frame inside
 * the page (an ad, an embed, another site's widget) speaks for itself only, unless the operator
 * allow-listed its origin (`pageCommandFrameOrigins`). An opaque origin (`null`: a sandboxed frame,
 * a `data:` document) is never allowed.
 */
export function frameMayCommand(sender: CommandSender, allowedOrigins: readonly string[]): boolean {
  if (sender.frameId === 0) return true;
  if (sender.frameId === null) return false;
  const origin = sender.frameOrigin ?? null;
  return origin !== null && origin !== 'null' && allowedOrigins.includes(origin);
}

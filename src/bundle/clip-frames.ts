import type { ClipFrameRef } from '../../schemas/messages';
import { bytesToBase64 } from '../shared/base64';

/**
 * Base64 of frames kept in memory a clip job carries at most: Chrome refuses an extension message
 * over 64 MiB, and the worker holds the message's text and its serialised copy.
 */
export const MAX_INLINE_CLIP_BYTES = 24 * 1024 * 1024;

/**
 * The clip job's frames: by IndexedDB key, which the offscreen document reads; a frame kept in
 * memory only (IndexedDB out of quota) in the message itself, the newest first up to `maxInline`
 * base64 characters (the encoder gives the time of a frame left out to the one before it). The
 * warning says how many such frames were left out.
 */
export function clipFrameRefs(
  frames: readonly { key: number; jpeg: Uint8Array; durationMs: number }[],
  inMemory: (key: number) => boolean,
  maxInline = MAX_INLINE_CLIP_BYTES,
): { refs: ClipFrameRef[]; warning: string | null } {
  const refs: ClipFrameRef[] = frames.map((f) => ({ key: f.key, duration_ms: f.durationMs }));
  let budget = maxInline;
  let left = 0;
  for (let i = frames.length - 1; i >= 0; i--) {
    if (!inMemory(frames[i]!.key)) continue;
    const base64 = bytesToBase64(frames[i]!.jpeg);
    if (base64.length > budget) {
      left++;
      continue;
    }
    budget -= base64.length;
    refs[i]!.jpeg_base64 = base64;
  }
  const warning = left ? `${left} frames kept in memory (storage full) are left out of the clip: more than a message to the encoder takes` : null;
  return { refs, warning };
}

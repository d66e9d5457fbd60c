import type { ClipFrameRef } from '../../schemas/messages';
import type { ClipOutcome } from '../bundle/clip-outcome';
import { base64ToBytes } from '../shared/base64';
import { deleteClip, encodeClip, readClip, warmupClipEncoder } from './offscreen-client';

/**
 * Encodes `failure.mp4` in the offscreen document. Stored frames are not sent in the message
 * (extension messages are JSON-serialised): the document reads them from IndexedDB by key and leaves
 * the mp4 in the clip store, from where it is read and removed. With IndexedDB out of quota, frames
 * kept in memory come in the message and the mp4 comes back in the answer.
 */
export async function encodeClipOffscreen(jobId: string, frames: ClipFrameRef[]): Promise<ClipOutcome> {
  const result = await encodeClip({ type: 'clip/encode', job_id: jobId, frames });
  if (!result.ok) return { ok: false, error: result.error };
  if (result.mp4_base64) return { ok: true, mp4: base64ToBytes(result.mp4_base64), durationSeconds: result.duration_seconds, encoder: result.encoder };
  try {
    const mp4 = await readClip(jobId);
    if (!mp4) return { ok: false, error: 'the encoded clip is missing from the clip store' };
    return { ok: true, mp4, durationSeconds: result.duration_seconds, encoder: result.encoder };
  } finally {
    await deleteClip(jobId);
  }
}

/** Loads the encoder ahead of the first failure so the first bundle does not pay for it. */
export async function warmUpClipEncoder(): Promise<void> {
  const result = await warmupClipEncoder();
  if (!result.ok) throw new Error(result.error);
}

import type { ClipEncodeMessage, ClipEncodeResult } from '../../schemas/messages';
import { base64ToBytes, bytesToBase64 } from '../shared/base64';
import { isQuotaExceeded } from '../ring/frame-ring';
import { planClipFrames } from './frame-plan';
import type { ClipEncoder, ClipStorage } from './ports';
import { withTimeout } from '../shared/timeout';
import { errorMessage } from '../shared/error-message';

/**
 * Longest a whole job may take, end to end: above the encoder's own load and exec budgets so those
 * report first, and well under the 5 minutes Chrome allows a service worker request.
 */
export function encodeJobBudgetMs(frameCount: number): number {
  return 60_000 + 250 * frameCount;
}

export interface EncodeJobDeps {
  storage: ClipStorage;
  encoder: ClipEncoder;
  now: () => number;
}


async function encodeAndStore(message: ClipEncodeMessage, { storage, encoder, now }: EncodeJobDeps): Promise<ClipEncodeResult> {
  const stored = await Promise.all(
    message.frames.map(async (ref) => ({
      jpeg: ref.jpeg_base64 ? base64ToBytes(ref.jpeg_base64) : await storage.readJpeg(ref.key),
      durationMs: ref.duration_ms,
    })),
  );
  const plan = planClipFrames(stored);
  if (plan.frames.length === 0) throw new Error(`none of the ${message.frames.length} frames could be read`);
  if (plan.dropped > 0) console.warn(`[afr] clip ${message.job_id}: ${plan.dropped} missing or unreadable frames skipped`);

  const started = now();
  const clip = await encoder.encode(plan.frames);
  const encodeMs = now() - started;
  if (clip.mp4.byteLength === 0) throw new Error(`${encoder.name} produced an empty file`);

  // No room in the clip store: the mp4 goes back in the answer instead.
  const inline = await storage.writeClip(message.job_id, clip.mp4).then(
    () => null,
    (error: unknown) => {
      if (!isQuotaExceeded(error)) throw error;
      return bytesToBase64(clip.mp4);
    },
  );
  return {
    ...(inline ? { mp4_base64: inline } : {}),
    ok: true,
    job_id: message.job_id,
    size_bytes: clip.mp4.byteLength,
    duration_seconds: clip.durationSeconds,
    encoder: clip.encoder ?? encoder.name,
    encode_ms: Math.round(encodeMs),
  };
}

/**
 * Reads a job's frames from storage, encodes them and stores the mp4 under the job id.
 * Always settles with a `ClipEncodeResult`, within `encodeJobBudgetMs`; failures are logged and answered
 * as `{ ok: false }`.
 */
export async function runEncodeJob(message: ClipEncodeMessage, deps: EncodeJobDeps): Promise<ClipEncodeResult> {
  try {
    const budget = encodeJobBudgetMs(message.frames.length);
    return await withTimeout(encodeAndStore(message, deps), budget, `clip job ${message.job_id}`);
  } catch (error) {
    console.error(`[afr] clip ${message.job_id} failed`, error);
    return { ok: false, job_id: message.job_id, error: errorMessage(error) };
  }
}

import { ToOffscreenMessageSchema, type ClipEncodeResult, type ClipWarmupResult } from '../../schemas/messages';
import { runEncodeJob, type EncodeJobDeps } from './encode-job';
import { errorMessage } from '../shared/error-message';

export type OffscreenAnswer = ClipEncodeResult | ClipWarmupResult;

async function warmup({ encoder, now }: EncodeJobDeps): Promise<ClipWarmupResult> {
  const started = now();
  try {
    await encoder.warmup?.();
    return { ok: true, encoder: encoder.name, load_ms: Math.round(now() - started) };
  } catch (error) {
    console.error('[afr] clip encoder warmup failed', error);
    return { ok: false, error: errorMessage(error) };
  }
}

/**
 * Routes a runtime message in the offscreen document. Returns undefined for anything that is not a
 * `ToOffscreenMessage`: every message the service worker or a content script sends reaches every
 * extension page, so foreign messages are normal and ignored without a word. The returned promise never
 * rejects.
 */
export function createOffscreenHandler(deps: EncodeJobDeps): (raw: unknown) => Promise<OffscreenAnswer> | undefined {
  return (raw) => {
    const parsed = ToOffscreenMessageSchema.safeParse(raw);
    if (!parsed.success) return undefined;
    const message = parsed.data;
    switch (message.type) {
      case 'clip/encode':
        return runEncodeJob(message, deps);
      case 'clip/warmup':
        return warmup(deps);
    }
  };
}

import {
  ClipEncodeResultSchema,
  ClipWarmupResultSchema,
  type ClipEncodeMessage,
  type ClipEncodeResult,
  type ClipWarmupResult,
} from '../../schemas/messages';
import { browser } from 'wxt/browser';
import { encodeJobBudgetMs } from '../clip/encode-job';
import { withTimeout } from '../shared/timeout';
import { errorMessage } from '../shared/error-message';

export { deleteClip, readClip } from './idb-clip-store';

/** Built from `entrypoints/offscreen/index.html`. */
const OFFSCREEN_PATH = 'offscreen.html';
/** Answering takes the offscreen document a moment more than the job itself. */
const ANSWER_MARGIN_MS = 10_000;
const WARMUP_TIMEOUT_MS = 45_000;

let creating: Promise<void> | null = null;

async function hasOffscreenDocument(): Promise<boolean> {
  const contexts = await browser.runtime.getContexts({
    contextTypes: ['OFFSCREEN_DOCUMENT'],
    documentUrls: [browser.runtime.getURL(`/${OFFSCREEN_PATH}`)],
  });
  return contexts.length > 0;
}

async function createOffscreenDocument(): Promise<void> {
  try {
    await browser.offscreen.createDocument({
      url: OFFSCREEN_PATH,
      // There is no reason for WebCodecs; the ffmpeg.wasm fallback runs in a Worker, which a service worker cannot start.
      reasons: ['WORKERS'],
      justification: 'Encodes the recorded screenshots into failure.mp4 with WebCodecs, or ffmpeg.wasm in a web worker.',
    });
  } catch (error) {
    // Another path created it between our check and our call: that is what we wanted.
    if (error instanceof Error && /single offscreen document/i.test(error.message)) return;
    throw error;
  }
}

/**
 * Makes sure the clip-encoding offscreen document exists. Only one offscreen document may exist per
 * extension, and concurrent `createDocument` calls fail, so concurrent callers share one creation.
 * https://developer.chrome.com/docs/extensions/reference/api/offscreen#method-createDocument
 */
export async function ensureOffscreenDocument(): Promise<void> {
  // Offscreen documents are Chrome's alone (the types, made from Chrome's, have them all the same).
  if (!('offscreen' in browser)) throw new Error('this browser has no offscreen documents (Firefox): no clip');
  if (creating) return creating;
  if (await hasOffscreenDocument()) return;
  creating ??= createOffscreenDocument().finally(() => {
    creating = null;
  });
  return creating;
}


/**
 * Asks the offscreen document to encode frames into an mp4, which it leaves in the `clips` store under
 * `message.job_id` (read it with `readClip`, then `deleteClip`), or, when that store has no room,
 * sends back in the answer (`mp4_base64`). Never throws: every failure, including
 * a missing or malformed answer, comes back as `{ ok: false, error }`.
 */
export async function encodeClip(message: ClipEncodeMessage): Promise<ClipEncodeResult> {
  try {
    await ensureOffscreenDocument();
    const budget = encodeJobBudgetMs(message.frames.length) + ANSWER_MARGIN_MS;
    const answer: unknown = await withTimeout(browser.runtime.sendMessage(message), budget, 'clip/encode answer');
    const parsed = ClipEncodeResultSchema.safeParse(answer);
    if (!parsed.success) return { ok: false, job_id: message.job_id, error: `invalid answer: ${parsed.error.message}` };
    return parsed.data;
  } catch (error) {
    console.error('[afr] clip/encode failed', error);
    return { ok: false, job_id: message.job_id, error: errorMessage(error) };
  }
}

/** Creates the offscreen document and loads the encoder, so the first failure does not wait for it. */
export async function warmupClipEncoder(): Promise<ClipWarmupResult> {
  try {
    await ensureOffscreenDocument();
    const answer: unknown = await withTimeout(browser.runtime.sendMessage({ type: 'clip/warmup' }), WARMUP_TIMEOUT_MS, 'clip/warmup answer');
    const parsed = ClipWarmupResultSchema.safeParse(answer);
    return parsed.success ? parsed.data : { ok: false, error: `invalid answer: ${parsed.error.message}` };
  } catch (error) {
    console.error('[afr] clip/warmup failed', error);
    return { ok: false, error: errorMessage(error) };
  }
}

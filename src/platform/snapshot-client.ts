import { SnapshotCaptureResultSchema, type SnapshotCaptureResult, type ToContentMessage } from '../../schemas/messages';
import { browser } from 'wxt/browser';
import { describeZodError } from '../shared/zod-error';
import { errorMessage } from '../shared/error-message';

export const SNAPSHOT_TIMEOUT_MS = 2_000;

/** Asks the content script of the tab's top frame for its DOM snapshot, with a timeout. */
export async function requestSnapshot(tabId: number, timeoutMs = SNAPSHOT_TIMEOUT_MS): Promise<SnapshotCaptureResult> {
  const message: ToContentMessage = { type: 'snapshot/capture' };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<SnapshotCaptureResult>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, error: `the page did not answer within ${timeoutMs} ms` }), timeoutMs);
  });
  const answer = browser.tabs
    .sendMessage(tabId, message, { frameId: 0 })
    .then((raw: unknown): SnapshotCaptureResult => {
      const parsed = SnapshotCaptureResultSchema.safeParse(raw);
      return parsed.success ? parsed.data : { ok: false, error: `malformed snapshot answer: ${describeZodError(parsed.error)}` };
    })
    .catch((error: unknown): SnapshotCaptureResult => ({ ok: false, error: errorMessage(error) }));
  try {
    return await Promise.race([answer, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

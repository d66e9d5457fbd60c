import type { ToContentMessage } from '../../schemas/messages';
import { browser } from 'wxt/browser';
import { CheckpointRefSchema, type CheckpointRef } from '../../schemas/timeline';

/** A checkpoint is a marker on the page's timeline: an answer later than this is not waited for. */
export const TIMELINE_CHECKPOINT_TIMEOUT_MS = 300;

/**
 * Asks the tab's top frame for a DOM timeline checkpoint now (an agent's step, assertion or mark):
 * its reference, or null when the page has none (below capture level `trace`, no content script,
 * no answer in time, a malformed answer).
 */
export async function requestTimelineCheckpoint(tabId: number, label: string, timeoutMs = TIMELINE_CHECKPOINT_TIMEOUT_MS): Promise<CheckpointRef | null> {
  const message: ToContentMessage = { type: 'timeline/checkpoint', label: label.slice(0, 200) };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), timeoutMs);
  });
  const answer = browser.tabs
    .sendMessage(tabId, message, { frameId: 0 })
    .then((raw: unknown) => {
      const parsed = CheckpointRefSchema.safeParse(raw);
      return parsed.success ? parsed.data : null;
    })
    .catch(() => null);
  try {
    return await Promise.race([answer, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

import { z } from './zod-mini';
import { RedactionRulesSchema } from './redaction-rules';

/**
 * What a content script needs at run time: the messages it accepts from the background, and the
 * limits of what it sends. A module of its own, in zod mini (see `zod-mini.ts`), so that a content
 * script (one in every frame of every page) builds these few schemas only, not every message's: the
 * background validates what it receives (`ToBackgroundMessageSchema` in `messages.ts`, which
 * re-exports these).
 */

/** Most steps one `step/batch` carries; a page flushes earlier when it has this many. */
export const STEP_BATCH_MAX = 50;

/** Background → content script (top frame): take the DOM snapshot now. Answer: `PageSnapshot`. */
export const SnapshotCaptureMessageSchema = z.strictObject({ type: z.literal('snapshot/capture') });

/** Background → content script (top frame): what would these rules mask here? Answer: `RedactionPreview`. */
export const RedactionPreviewMessageSchema = z.strictObject({ type: z.literal('redaction/preview'), rules: RedactionRulesSchema });

/** Background → content script (top frame): report the sensitive regions now, even if unchanged. No answer. */
export const RedactionReportMessageSchema = z.strictObject({ type: z.literal('redaction/report') });

/**
 * Background → content script (top frame): measure the sensitive regions at the page's second
 * animation frame from now (the first may carry the compositor's scroll from before), and answer
 * with them (`redaction/rects`, sent even if unchanged). A frame that reached the background before
 * this was sent is masked once the answer is in: the page has then seen every scroll the frame may show.
 */
export const RedactionSyncMessageSchema = z.strictObject({ type: z.literal('redaction/sync') });

/**
 * Background → content script (top frame): take a DOM timeline checkpoint now (an agent's step,
 * assertion or mark is being recorded). Answer: its `CheckpointRef`, or null (no timeline here).
 */
export const TimelineCheckpointMessageSchema = z.strictObject({ type: z.literal('timeline/checkpoint'), label: z.string().check(z.maxLength(200)) });

/** Everything the content script accepts from the background. */
export const ToContentMessageSchema = z.discriminatedUnion('type', [
  SnapshotCaptureMessageSchema,
  RedactionPreviewMessageSchema,
  RedactionReportMessageSchema,
  RedactionSyncMessageSchema,
  TimelineCheckpointMessageSchema,
]);
export type ToContentMessage = z.infer<typeof ToContentMessageSchema>;

import { z } from 'zod';
import { PageSnapshotSchema } from './snapshot';
import { StepKindSchema, StepTargetSchema } from './steps';
import { PAGE_LIMITS } from './page-protocol';
import { AgentCommandSchema } from './agent';
import { STEP_BATCH_MAX } from './content-messages';
import { CheckpointRefSchema, TimelineBasePartMessageSchema, TimelineEntriesMessageSchema, TimelineStartMessageSchema } from './timeline';

export {
  STEP_BATCH_MAX,
  SnapshotCaptureMessageSchema,
  RedactionPreviewMessageSchema,
  RedactionReportMessageSchema,
  RedactionSyncMessageSchema,
  TimelineCheckpointMessageSchema,
  ToContentMessageSchema,
  type ToContentMessage,
} from './content-messages';

/**
 * Messages between the extension's contexts: one union tagged by `type`, named `area/verb`.
 * Receivers `safeParse` and drop (with a warning) whatever does not parse.
 */

/** Content script → background: an action the observer saw. Tab and frame come from the sender. */
export const StepObservedMessageSchema = z
  .object({
    type: z.literal('step/observed'),
    ts: z.number(),
    url: z.string().max(8192),
    // The agent's model and tool calls come from the agent alone (`afr`): a page cannot put one on the timeline.
    kind: StepKindSchema.exclude(['tool_call', 'model_call']),
    action: z.string().max(PAGE_LIMITS.stepChars),
    target: z.union([StepTargetSchema, z.string().max(PAGE_LIMITS.stepChars)]).nullable(),
    value: z.string().max(PAGE_LIMITS.stepChars).nullable(),
    value_redacted: z.boolean(),
    outcome: z.enum(['ok', 'fail']).nullable(),
    label: z.string().max(PAGE_LIMITS.labelChars).nullable(),
    /** The event was dispatched by the page's script (`isTrusted: false`); absent for input from the browser. */
    synthetic: z.literal(true).optional(),
    /** Capture level `trace` and up, top frame: the DOM timeline's checkpoint taken just before the action. */
    checkpoint: CheckpointRefSchema.optional(),
  })
  .strict();

/**
 * Content script → background: steps observed in quick succession, in the order they happened, sent
 * as one message (a tight agent loop would otherwise cost an IPC and a worker wake-up per step).
 */
export const StepBatchMessageSchema = z
  .object({
    type: z.literal('step/batch'),
    steps: z.array(StepObservedMessageSchema).min(1).max(STEP_BATCH_MAX),
  })
  .strict();

/** Content script → background: a page protocol message (`step`, `assert`, `mark`, `runStart`, `runEnd`, `fail`), text masked. */
export const AgentCommandMessageSchema = z
  .object({
    type: z.literal('agent/command'),
    ts: z.number(),
    url: z.string().max(8192),
    command: AgentCommandSchema,
    /**
     * Capture level `trace` and up, top frame: the DOM timeline's checkpoint the content script took
     * as the page posted a `step`, `assert` or `mark` (the page at that moment; one asked for by the
     * worker once it gets to the message may come after the actions that followed).
     */
    checkpoint: CheckpointRefSchema.optional(),
  })
  .strict();

/** Content script → background: an uncaught error seen in the page (fallback when no debugger). */
export const PageErrorSignalMessageSchema = z
  .object({
    type: z.literal('signal/page-error'),
    ts: z.number(),
    url: z.string().max(8192),
    kind: z.enum(['error', 'unhandledrejection']),
    message: z.string().max(16 * 1024),
    stack: z.string().max(64 * 1024).nullable(),
  })
  .strict();

/**
 * A viewport rectangle, CSS pixels. `id`: what it shows (a field, a text node), the same in every
 * report of the document: a frame taken between two reports may show it anywhere between them.
 */
const ViewportRectSchema = z
  .object({ x: z.number(), y: z.number(), width: z.number().nonnegative(), height: z.number().nonnegative(), id: z.number().int().nonnegative().optional() })
  .strict();

/**
 * Content script (top frame) → background: where sensitive content is on screen now, for masking
 * frames before they are stored. Sent when the page starts (possibly with no rects) and whenever the
 * regions change (scroll, resize, DOM changes, typing). Rects of same-origin iframes and open shadow
 * roots are included, in the top viewport's coordinates.
 */
export const SensitiveRectsMessageSchema = z
  .object({
    type: z.literal('redaction/rects'),
    ts: z.number(),
    url: z.string().max(8192),
    viewport: z.object({ width: z.number().positive(), height: z.number().positive() }).strict(),
    device_pixel_ratio: z.number().positive(),
    rects: z.array(ViewportRectSchema).max(2000),
    /**
     * The top document's scroll position (CSS px) when the rects were measured. The compositor
     * scrolls the page before the page hears of it: a screencast frame says where it was scrolled
     * to, and the rects are placed there too. Rects may lie outside the viewport (what a scroll is
     * about to show).
     */
    scroll: z.object({ x: z.number(), y: z.number() }).strict().optional(),
    /**
     * The visual viewport (`window.visualViewport`) when the rects were measured: its size and offset
     * in the layout viewport (CSS px) and its scale (pinch zoom, or a mobile page shown zoomed out).
     * A frame shows the visual viewport at this scale: the worker maps the rects with it when the
     * driver emulates a viewport unlike the window (Puppeteer's default, mobile emulation).
     */
    visual_viewport: z
      .object({ width: z.number().positive(), height: z.number().positive(), offset_x: z.number(), offset_y: z.number(), scale: z.number().positive() })
      .strict()
      .optional(),
  })
  .strict();
export type SensitiveRectsMessage = z.infer<typeof SensitiveRectsMessageSchema>;

/**
 * A frame of a clip job, read from IndexedDB by its key; a frame the ring keeps in memory only
 * (IndexedDB out of quota) comes in the message itself, as base64 JPEG.
 */
export const ClipFrameRefSchema = z.object({ key: z.number().int(), duration_ms: z.number().positive(), jpeg_base64: z.string().min(1).optional() }).strict();

/** Background → offscreen document: encode these frames; the mp4 is written to the clip store. */
export const ClipEncodeMessageSchema = z
  .object({
    type: z.literal('clip/encode'),
    job_id: z.string(),
    frames: z.array(ClipFrameRefSchema).min(1),
  })
  .strict();

/** Background → offscreen document: load the encoder ahead of the first failure. */
export const ClipWarmupMessageSchema = z.object({ type: z.literal('clip/warmup') }).strict();

export const ClipEncodeResultSchema = z.discriminatedUnion('ok', [
  z
    .object({
      ok: z.literal(true),
      job_id: z.string(),
      size_bytes: z.number().int().positive(),
      duration_seconds: z.number().nonnegative(),
      encoder: z.string(),
      encode_ms: z.number().nonnegative(),
      /** The mp4 itself, base64, when the clip store had no room for it (IndexedDB out of quota). */
      mp4_base64: z.string().min(1).optional(),
    })
    .strict(),
  z.object({ ok: z.literal(false), job_id: z.string(), error: z.string() }).strict(),
]);
export type ClipEncodeResult = z.infer<typeof ClipEncodeResultSchema>;

/** The offscreen document's answer to `clip/warmup`. */
export const ClipWarmupResultSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), encoder: z.string(), load_ms: z.number().nonnegative() }).strict(),
  z.object({ ok: z.literal(false), error: z.string() }).strict(),
]);
export type ClipWarmupResult = z.infer<typeof ClipWarmupResultSchema>;

export const SnapshotCaptureResultSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), snapshot: PageSnapshotSchema }).strict(),
  z.object({ ok: z.literal(false), error: z.string() }).strict(),
]);
export type SnapshotCaptureResult = z.infer<typeof SnapshotCaptureResultSchema>;

/**
 * Extension pages (popup, options, library, viewer) → background: one call of the operator API.
 * Answer: `UiApiResult`.
 */
export const UI_API_METHODS = [
  'status',
  'pause',
  'resume',
  'saveBundle',
  'listBundles',
  'exportBundle',
  'deleteBundle',
  'downloadBundle',
  'getSettings',
  'configure',
  'previewRedaction',
  'chooseTab',
  'testUpload',
  'managedSettings',
] as const;
export const UiApiMessageSchema = z
  .object({
    type: z.literal('ui/api'),
    method: z.enum(UI_API_METHODS),
    args: z.array(z.unknown()).max(4),
  })
  .strict();
export type UiApiMessage = z.infer<typeof UiApiMessageSchema>;
export type UiApiMethod = (typeof UI_API_METHODS)[number];

export const UiApiResultSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), value: z.unknown() }).strict(),
  z.object({ ok: z.literal(false), error: z.string() }).strict(),
]);
export type UiApiResult = z.infer<typeof UiApiResultSchema>;

/** Everything the background accepts from content scripts. */
export const ToBackgroundMessageSchema = z.discriminatedUnion('type', [
  StepObservedMessageSchema,
  StepBatchMessageSchema,
  AgentCommandMessageSchema,
  PageErrorSignalMessageSchema,
  SensitiveRectsMessageSchema,
  TimelineStartMessageSchema,
  TimelineBasePartMessageSchema,
  TimelineEntriesMessageSchema,
]);
export type ToBackgroundMessage = z.infer<typeof ToBackgroundMessageSchema>;

/** Everything the offscreen document accepts. */
export const ToOffscreenMessageSchema = z.discriminatedUnion('type', [ClipEncodeMessageSchema, ClipWarmupMessageSchema]);
export type ToOffscreenMessage = z.infer<typeof ToOffscreenMessageSchema>;

export type StepObservedMessage = z.infer<typeof StepObservedMessageSchema>;
export type StepBatchMessage = z.infer<typeof StepBatchMessageSchema>;
export type AgentCommandMessage = z.infer<typeof AgentCommandMessageSchema>;
export type PageErrorSignalMessage = z.infer<typeof PageErrorSignalMessageSchema>;
export type ClipEncodeMessage = z.infer<typeof ClipEncodeMessageSchema>;
export type ClipFrameRef = z.infer<typeof ClipFrameRefSchema>;

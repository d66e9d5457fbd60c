import { z } from 'zod';
import { apiInputSchema } from './agent';
import { CaptureLevelSchema } from './capture-level';
import { DroppedFramesByReasonSchema } from './drop-reasons';
import { RedactionRulesSchema } from './settings';

/** `afr.fail({ tabId?, reason, label? })` */
export const FailInputSchema = apiInputSchema('fail');
export type FailInput = z.infer<typeof FailInputSchema>;

/** `afr.step({ tabId?, action, target?, outcome?, label?, goal?, reasoning? })` */
export const StepInputSchema = apiInputSchema('step');
export type StepInput = z.infer<typeof StepInputSchema>;

/** `afr.assert({ tabId?, label, passed, expected?, actual?, reasoning? })` */
export const AssertInputSchema = apiInputSchema('assert');
/** `afr.mark({ tabId?, label, reasoning? })` */
export const MarkInputSchema = apiInputSchema('mark');
/** `afr.runStart({ tabId?, runId?, agent?, agentVersion?, task? })` */
export const RunStartInputSchema = apiInputSchema('runStart');
/** `afr.runEnd({ tabId?, outcome?, label? })` */
export const RunEndInputSchema = apiInputSchema('runEnd');

/** Who asked for a bundle (see `BundleSummary.trigger`). */
export const BundleTriggerSchema = z.enum(['agent', 'operator', 'page', 'signal']);
export type BundleTrigger = z.infer<typeof BundleTriggerSchema>;

/** One row of `afr.listBundles()`. */
export const BundleSummarySchema = z
  .object({
    id: z.string(),
    createdAt: z.string(),
    reason: z.string(),
    label: z.string().nullable(),
    tabId: z.number().int().nullable(),
    url: z.string().nullable(),
    sizeBytes: z.number().int().nonnegative(),
    downloadId: z.number().int().nullable(),
    /**
     * Who asked for the bundle: the agent (`afr`), the operator (the extension's pages), a page (its
     * `fail`, failed `assert` or `runEnd` through the page protocol), or a signal the recorder saw.
     * A page's bundles are never downloaded on their own and are deleted first. Absent on bundles
     * stored before it was recorded.
     */
    trigger: BundleTriggerSchema.optional(),
  })
  .strict();
export type BundleSummary = z.infer<typeof BundleSummarySchema>;

/** `afr.status()` */
export const StatusSchema = z
  .object({
    recording: z.boolean(),
    /** Paused by the operator: no frames, steps or signals until resumed. */
    paused: z.boolean(),
    tabs: z.array(
      z
        .object({
          tabId: z.number().int(),
          windowId: z.number().int(),
          url: z.string().nullable(),
          debugger: z.boolean(),
          /** Why the debugger is not attached (e.g. `detached: canceled_by_user`), else null. */
          debuggerError: z.string().nullable(),
          /** Where this tab's exception signals come from: the DevTools protocol, or the page-level fallback. */
          signals: z.enum(['debugger', 'page']),
          /** Where this tab's frames come from now (`auto`: captureVisibleTab while the agent acts in a burst). */
          source: z.enum(['screencast', 'visibleTab']),
          /** The run the tab's page declared (page protocol `runStart`) while the agent has none, else null. */
          pageRunId: z.string().nullable(),
        })
        .strict(),
    ),
    frames: z.number().int().nonnegative(),
    bytes: z.number().int().nonnegative(),
    fps: z.number().nonnegative(),
    oldestFrameAgeMs: z.number().nullable(),
    capturesOk: z.number().int().nonnegative(),
    captureErrors: z.number().int().nonnegative(),
    quotaErrors: z.number().int().nonnegative(),
    lastCaptureError: z.string().nullable(),
    /** Frames not stored because their sensitive regions were not known in time. */
    droppedFrames: z.number().int().nonnegative(),
    /** The same, by reason (see `DROP_REASONS`): e.g. `viewport-mismatch` names frames the reports could not be mapped onto. */
    droppedFramesByReason: DroppedFramesByReasonSchema.optional(),
    /**
     * Storage running out of quota: the ring deleted its older frames and went on recording, keeping
     * frames in memory (`framesInMemory`, lost if the worker stops) while IndexedDB still refused them.
     */
    storage: z
      .object({ quotaErrors: z.number().int().nonnegative(), lastError: z.string().nullable(), framesInMemory: z.number().int().nonnegative() })
      .strict(),
    steps: z.number().int().nonnegative(),
    bundles: z.number().int().nonnegative(),
    packaging: z.boolean(),
    runId: z.string(),
    run: z
      .object({
        active: z.boolean(),
        agent: z.string().nullable(),
        agentVersion: z.string().nullable(),
        task: z.string().nullable(),
        startedAt: z.string().nullable(),
      })
      .strict(),
    captureLevel: CaptureLevelSchema,
    persistMode: z.enum(['on_fail', 'always', 'manual']),
    version: z.string(),
    /** What pages sent that the recorder refused or dropped since the service worker started (all tabs). */
    pageLimits: z
      .object({
        /** Page commands from a frame inside the page (not allowed by `pageCommandFrameOrigins`). */
        framesRefused: z.number().int().nonnegative(),
        /** A page's `runStart`/`runEnd` while the agent's run is active, or a `runEnd` of no run of the page's. */
        runCommandsRefused: z.number().int().nonnegative(),
        /** Page commands, observed steps and page error reports over their tab's quota. */
        commandsDropped: z.number().int().nonnegative(),
        stepsDropped: z.number().int().nonnegative(),
        errorsDropped: z.number().int().nonnegative(),
        /** Bundles a page triggered past the page-bundle quota (not made). */
        bundlesRefused: z.number().int().nonnegative(),
      })
      .strict(),
  })
  .strict();
export type Status = z.infer<typeof StatusSchema>;

/** `saveBundle({ tabId? })` from the operator pages. */
export const SaveBundleInputSchema = z.object({ tabId: z.number().int().optional() }).strict();

/** `previewRedaction({ tabId, rules })` from the settings page. */
export const PreviewRedactionInputSchema = z.object({ tabId: z.number().int(), rules: RedactionRulesSchema }).strict();

/** What redaction would mask on a page: each element, why, and a masked sample of its content. */
export const RedactionPreviewSchema = z
  .object({
    matches: z.array(
      z
        .object({
          tag: z.string(),
          selector: z.string(),
          /** `selector`, `field_name`, `text_pattern`, or `built_in:<kind>` */
          reason: z.string(),
          sample: z.string(),
        })
        .strict(),
    ),
    total: z.number().int().nonnegative(),
    problems: z.array(z.string()),
  })
  .strict();
export type RedactionPreview = z.infer<typeof RedactionPreviewSchema>;

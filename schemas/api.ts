import { z } from 'zod';
import { apiInputSchema } from './agent';
import { CaptureLevelSchema } from './capture-level';
import { DroppedFramesByReasonSchema } from './drop-reasons';
import { ShownPartSchema } from './viewport-cut';
import { RedactionRulesSchema } from './settings';
import { BundleUploadSchema, UploadStatusSchema } from './upload';

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
    /**
     * True on a bundle of a failure signal (`trigger: 'signal'`) made while no agent run was active: a
     * page provoked it (its exceptions, its server's 5xx), so it is held to a page's rules: a per-tab
     * hourly quota, never downloaded on its own, deleted first. Absent on every other bundle.
     */
    unattended: z.boolean().optional(),
    /** Its delivery to object storage, while `upload` is on (read from the outbox, not stored with the bundle). */
    upload: BundleUploadSchema.optional(),
  })
  .strict();
export type BundleSummary = z.infer<typeof BundleSummarySchema>;

/**
 * What became of the latest bundle the recorder downloaded (`autoDownload`, or the library's Download)
 * since its service worker started: Chrome's final path, and whether the browser's download folder
 * is managed by the driver (Playwright), where the file will not last.
 */
export const DownloadsStatusSchema = z
  .object({
    lastBundleId: z.string().nullable(),
    /** The absolute path Chrome wrote, null when nothing was written. */
    lastPath: z.string().nullable(),
    state: z.enum(['complete', 'interrupted']).nullable(),
    /** Chrome's interrupt reason (`USER_CANCELED`…), else null. */
    error: z.string().nullable(),
    /** The file is not `<downloads>/agent-flight-recorder/<id>.zip`: a driver took the downloads over. */
    managedByDriver: z.boolean(),
    /** What happened and how to keep bundles, when something is wrong; else null. */
    hint: z.string().nullable(),
  })
  .strict();
export type DownloadsStatus = z.infer<typeof DownloadsStatusSchema>;

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
          /** Whether the tab is in the recording scope (the `scope` setting). */
          recorded: z.boolean(),
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
     * Frames in the ring that show less than their page's layout viewport (`innerWidth`×`innerHeight`):
     * the window is smaller than the viewport the driver emulates, and what lies below (or right of)
     * the part shown is in no frame. `frames`: how many; `tabId`, `viewport`, `shown` (CSS px): the
     * latest such frame's; `warning`: what is missing and the fix (launch with
     * `--silent-debugger-extension-api`). Null while every frame shows the whole viewport.
     */
    viewportCut: z
      .object({
        frames: z.number().int().positive(),
        tabId: z.number().int(),
        viewport: z.object({ width: z.number(), height: z.number() }).strict(),
        shown: ShownPartSchema,
        warning: z.string(),
      })
      .strict()
      .nullable(),
    /**
     * Storage running out of quota: the ring deleted its older frames and went on recording, keeping
     * frames in memory (`framesInMemory`, lost if the worker stops) while IndexedDB still refused them.
     */
    storage: z
      .object({ quotaErrors: z.number().int().nonnegative(), lastError: z.string().nullable(), framesInMemory: z.number().int().nonnegative() })
      .strict(),
    steps: z.number().int().nonnegative(),
    /**
     * The DOM timeline kept (capture level `trace` and up): documents, estimated bytes (of
     * `maxTimelineBytes`), and when the latest document's recording started (ms since the epoch); and
     * what the worker accepted from the pages since it started, before the window and the byte cap
     * dropped or folded any of it: documents started, entries (changes and checkpoints), checkpoints
     * (one per step of a top frame, one as each page loads and is left) and estimated bytes (JSON
     * characters of the bases and entries). Counted from zero again when the worker restarts.
     */
    timeline: z
      .object({
        documents: z.number().int().nonnegative(),
        bytes: z.number().int().nonnegative(),
        latestStart: z.number().nullable(),
        receivedDocuments: z.number().int().nonnegative(),
        receivedEntries: z.number().int().nonnegative(),
        receivedCheckpoints: z.number().int().nonnegative(),
        receivedBytes: z.number().int().nonnegative(),
      })
      .strict()
      .optional(),
    bundles: z.number().int().nonnegative(),
    packaging: z.boolean(),
    /** Why the latest bundle the recorder set out to write could not be written (a store refused it…), else null. */
    lastBundleError: z.string().nullable().optional(),
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
        /** Bundles of signals on a tab with no agent run past the signal-bundle quota (not made; the signal is on the timeline). */
        signalBundlesRefused: z.number().int().nonnegative().optional(),
        /** DOM timeline messages of a top frame over the tab's quota of characters (dropped; the document's later changes are not kept). */
        timelineDropped: z.number().int().nonnegative().optional(),
      })
      .strict(),
    /**
     * The recording scope in force: the `scope` setting, its origin allow-list, and the open tabs
     * recorded now (every tab the worker knows of with `all`), the agent's and the operator's chosen tabs.
     */
    scope: z
      .object({
        mode: z.enum(['all', 'agent', 'chosen']),
        origins: z.array(z.string()),
        recordedTabs: z.array(z.number().int()),
        agentTabs: z.array(z.number().int()),
        chosenTabs: z.array(z.number().int()),
      })
      .strict(),
    /** The latest download of a bundle (see `DownloadsStatusSchema`). */
    downloads: DownloadsStatusSchema,
    /** Delivery to object storage (`upload` setting); absent when the recorder has no delivery wired. */
    upload: UploadStatusSchema.optional(),
  })
  .strict();
export type Status = z.infer<typeof StatusSchema>;

/** The longest one `afr.waitForBundle` call waits (the client waits longer by calling again). */
export const MAX_BUNDLE_WAIT_MS = 60_000;

/**
 * `afr.waitForBundle({ since?, reason?, trigger?, timeoutMs })`: the first bundle stored after `since`
 * (automatic ones included) that has this `reason` and `trigger`; null when none came within `timeoutMs`.
 */
export const WaitForBundleInputSchema = z
  .object({
    /**
     * A time (ms since the epoch, or an ISO 8601 string): bundles created at or after it; or a bundle
     * id: bundles created after that bundle. Default: the moment of the call.
     */
    since: z.union([z.number().finite(), z.string().min(1).max(64)]).optional(),
    /** Only a bundle with this reason (`http_5xx`, `exception`, `assertion_failed`, `agent_failure`…). */
    reason: z.string().min(1).max(1024).optional(),
    /** Only a bundle of this trigger: `signal` (the recorder's own), `agent`, `operator` or `page`. */
    trigger: BundleTriggerSchema.optional(),
    timeoutMs: z.number().int().min(0).max(MAX_BUNDLE_WAIT_MS),
  })
  .strict();
export type WaitForBundleInput = z.infer<typeof WaitForBundleInputSchema>;

/** `saveBundle({ tabId? })` from the operator pages. */
export const SaveBundleInputSchema = z.object({ tabId: z.number().int().optional() }).strict();

/** `chooseTab({ tabId, chosen })` from the popup: the operator's "Record this tab" toggle (`scope: 'chosen'`). */
export const ChooseTabInputSchema = z.object({ tabId: z.number().int().nonnegative(), chosen: z.boolean() }).strict();

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

import { z } from 'zod';
import { AgentCallTotalsSchema } from './agent-calls';
import { DroppedFramesByReasonSchema } from './drop-reasons';
import { FailedRequestSchema, FailureSignalSchema } from './failure';
import { HarCountsSchema } from './network';
import { RedactionCountsSchema } from './snapshot';
import { ShownPartSchema } from './viewport-cut';

export const DIAGNOSTICS_VERSION = 1;

/** `diagnostics.json`: why the bundle exists and how it was made. */
export const DiagnosticsSchema = z
  .object({
    version: z.literal(DIAGNOSTICS_VERSION),
    bundle_id: z.string(),
    failure: FailureSignalSchema,
    /** Failure signals of the same tab dropped by the cooldown shortly before this one. */
    suppressed_signals: z.number().int().nonnegative(),
    /** Every signal of the tab in the window before the failure, oldest first (recorded, triggering, suppressed). */
    signal_chain: z.array(
      z
        .object({
          at: z.string(),
          kind: z.string(),
          disposition: z.enum(['trigger', 'record', 'suppressed']),
          reason: z.string(),
          message: z.string().nullable(),
        })
        .strict(),
    ),
    /** The last console errors of the tab in the window, oldest first. */
    console_errors: z.array(z.object({ at: z.string(), message: z.string(), url: z.string().nullable() }).strict()),
    /** The last failed requests and HTTP error responses of the tab in the window, oldest first. */
    failed_requests: z.array(FailedRequestSchema.extend({ at: z.string() }).strict()),
    /** Shape of the page at the failure, from the DOM snapshot (null without one). */
    page_metrics: z
      .object({
        dom_nodes: z.number().int().nonnegative(),
        max_depth: z.number().int().nonnegative(),
        frames: z.number().int().nonnegative(),
        shadow_roots: z.number().int().nonnegative(),
        snapshot_truncated: z.boolean(),
        viewport: z.object({ width: z.number(), height: z.number(), scroll_x: z.number(), scroll_y: z.number() }).strict(),
      })
      .strict()
      .nullable(),
    redaction: RedactionCountsSchema,
    capture: z
      .object({
        frames_in_bundle: z.number().int().nonnegative(),
        /** Frames captured per second over the bundle's window (`window_start` to `window_end`). */
        fps: z.number().nonnegative(),
        /** Sensitive regions masked in frames since the recorder started. */
        masked_regions: z.number().int().nonnegative(),
        /** Frames dropped because their sensitive regions were not known in time. */
        dropped_frames: z.number().int().nonnegative(),
        /** The same, by reason (see `DROP_REASONS`); absent from bundles written before it existed. */
        dropped_frames_by_reason: DroppedFramesByReasonSchema.optional(),
        frames_in_ring: z.number().int().nonnegative(),
        ring_bytes: z.number().int().nonnegative(),
        window_start: z.string().nullable(),
        window_end: z.string(),
        captures_ok: z.number().int().nonnegative(),
        capture_errors: z.number().int().nonnegative(),
        quota_errors: z.number().int().nonnegative(),
        evicted_frames: z.number().int().nonnegative(),
        last_capture_error: z.string().nullable(),
        /**
         * The bundle's frames that show less than their page's layout viewport (the window was smaller
         * than the viewport the driver emulated: what lay below or right of `shown` is in no frame),
         * the latest one's `viewport` and `shown` (CSS px); a warning says the fix. Absent when every
         * frame shows the whole viewport, and from bundles written before it existed.
         */
        viewport_cut: z
          .object({ frames: z.number().int().positive(), viewport: z.object({ width: z.number(), height: z.number() }).strict(), shown: ShownPartSchema })
          .strict()
          .optional(),
      })
      .strict(),
    /**
     * The other tabs recorded in the window, most recently active first: a bundle is about the
     * failing tab, these say what else the agent was doing meanwhile (their frames and steps are not
     * in the bundle). Absent from bundles written before it existed. With a failure bound to no tab,
     * every recorded tab is listed.
     */
    other_tabs: z.array(
      z
        .object({
          tab_id: z.number().int(),
          /** The tab's last URL seen in the window (redacted like every URL). */
          url: z.string().nullable(),
          steps: z.number().int().nonnegative(),
          signals: z.number().int().nonnegative(),
          frames: z.number().int().nonnegative(),
          last_activity_at: z.string(),
          /** The tab's last few steps, oldest first. */
          last_steps: z.array(z.object({ at: z.string(), kind: z.string(), action: z.string(), label: z.string().nullable() }).strict()),
        })
        .strict(),
    ).optional(),
    /**
     * What the network log's bounds and masking did for `network.har` (the same counts as its
     * `log._afr`): requests seen and dropped, headers cut, bodies left out by reason, values withheld,
     * spans masked. Absent when the bundle has no `network.har`, and from bundles written before it.
     */
    network: HarCountsSchema.optional(),
    debugger: z
      .object({ attached: z.boolean(), error: z.string().nullable() })
      .strict(),
    /** Packaging stages, in ms from the start of packaging (snapshot runs beside frames and clip). */
    timings_ms: z
      .object({
        snapshot: z.number().nonnegative(),
        frames: z.number().nonnegative(),
        clip: z.number().nonnegative(),
        /** Everything before zipping; the zip itself is written after this file is. */
        before_zip: z.number().nonnegative(),
      })
      .strict(),
    clip_error: z.string().nullable(),
    warnings: z.array(z.string()),
    /** The agent's model and tool calls in the window (`agent.json`), with tokens and cost when given; absent when there were none. */
    agent_calls: AgentCallTotalsSchema.optional(),
  })
  .strict();
export type Diagnostics = z.infer<typeof DiagnosticsSchema>;

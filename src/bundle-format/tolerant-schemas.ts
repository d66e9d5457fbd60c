import { z } from 'zod';
import { DiagnosticsSchema } from '../../schemas/diagnostics';
import { FailureSignalSchema } from '../../schemas/failure';
import { FrameViewportSchema, ManifestSchema } from '../../schemas/manifest';
import { SnapshotFileSchema } from '../../schemas/snapshot';
import { StepSchema } from '../../schemas/steps';

/*
 * Tolerant readings of the bundle files, for summaries (`afr inspect`): the fields a summary shows, with
 * their types taken from the bundle schemas, in objects that ignore unknown keys. A bundle written by an
 * older or newer recorder (a field added elsewhere in the manifest, a new step kind) still reads; the
 * files' own schemas (`BUNDLE_JSON_FILES`) are the strict check.
 */

const manifest = ManifestSchema.shape;
const frame = manifest.frames.element.shape;
const viewport = FrameViewportSchema.shape;

/**
 * A frame's viewport, its fields as the schema has them in an object that ignores unknown keys; one
 * that does not read is left out (the frame still reads, as a frame without a viewport).
 */
const TolerantFrameViewportSchema = z
  .object({ width: viewport.width, height: viewport.height, device_pixel_ratio: viewport.device_pixel_ratio, image_scale: viewport.image_scale, scroll: z.object({ x: z.number(), y: z.number() }).optional(), shown: viewport.shown })
  .optional()
  .catch(undefined);

/** `manifest.json`: what a summary shows of the failure, the frames and the clip. */
export const TolerantManifestSchema = z.object({
  bundle_id: manifest.bundle_id,
  run_id: manifest.run_id,
  status: z.string(),
  started_at: manifest.started_at,
  ended_at: manifest.ended_at,
  failure_reason: manifest.failure_reason,
  failure_label: manifest.failure_label,
  failure_message: manifest.failure_message,
  url_at_failure: manifest.url_at_failure,
  tab_id: manifest.tab_id,
  /** The agent's run; absent from bundles written before runs. */
  run: z.object({ agent: z.string().nullable(), agent_version: z.string().nullable() }).optional(),
  frames: z.array(
    z.object({ name: frame.name, captured_at: frame.captured_at, ts: frame.ts, duration_ms: frame.duration_ms, width: frame.width, height: frame.height, captures: frame.captures, last_ts: frame.last_ts, viewport: TolerantFrameViewportSchema }),
  ),
  clip: z.object({ duration_seconds: z.number(), encoder: z.string() }).nullable(),
});

const capture = DiagnosticsSchema.shape.capture.shape;
const signal = FailureSignalSchema.shape;

/** `diagnostics.json`: the failure signal, the errors around it and what went wrong while recording. */
export const TolerantDiagnosticsSchema = z.object({
  bundle_id: z.string(),
  failure: z.object({
    /** Added with configurable signals; older bundles have no kind. */
    kind: z.string().optional(),
    reason: signal.reason,
    label: signal.label,
    origin: z.string(),
    tab_id: signal.tab_id,
    url: signal.url,
    ts: signal.ts,
    message: signal.message,
    stack: signal.stack,
    http_status: signal.http_status,
    /** The request of a network failure; absent from bundles written before it was kept. */
    request: signal.request.optional(),
  }),
  suppressed_signals: z.number(),
  /** Added with configurable signals: absent from older bundles. */
  console_errors: z.array(z.object({ at: z.string(), message: z.string() })).optional(),
  failed_requests: z
    .array(z.object({ at: z.string(), url: z.string(), method: z.string().nullable(), status: z.number().nullable(), error_text: z.string().nullable() }))
    .optional(),
  capture: z.object({
    capture_errors: capture.capture_errors,
    quota_errors: capture.quota_errors,
    last_capture_error: capture.last_capture_error,
    /** Absent from bundles written before frames were counted by reason. */
    dropped_frames: capture.dropped_frames.optional(),
    dropped_frames_by_reason: capture.dropped_frames_by_reason,
  }),
  debugger: z.object({ error: z.string().nullable() }),
  clip_error: z.string().nullable(),
  warnings: z.array(z.string()),
});

const step = StepSchema.shape;

/** `steps.json`: each step's time, who did what to which target, and how it went. */
export const TolerantStepsSchema = z.object({
  bundle_id: z.string(),
  steps: z.array(
    z.object({
      ts: step.ts,
      source: z.string(),
      kind: z.string(),
      action: step.action,
      target: z.union([z.object({ tag: z.string(), name: z.string().optional(), selector: z.string() }), z.string()]).nullable(),
      value: step.value,
      value_redacted: step.value_redacted,
      outcome: z.string().nullable(),
      label: step.label,
    }),
  ),
});

/** `snapshot.json`: the page the snapshot was taken of, or why there is none. */
export const TolerantSnapshotSchema = z.object({
  snapshot: z.object({ url: z.string(), title: z.string(), node_count: z.number(), truncated: z.boolean() }).nullable(),
  error: SnapshotFileSchema.shape.error,
});

/** `manifest.json`, read tolerantly. */
export type TolerantManifest = z.infer<typeof TolerantManifestSchema>;
/** `diagnostics.json`, read tolerantly. */
export type TolerantDiagnostics = z.infer<typeof TolerantDiagnosticsSchema>;
/** One step of `steps.json`, read tolerantly. */
export type TolerantStep = z.infer<typeof TolerantStepsSchema>['steps'][number];
/** `snapshot.json`, read tolerantly. */
export type TolerantSnapshot = z.infer<typeof TolerantSnapshotSchema>;

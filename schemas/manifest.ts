import { z } from 'zod';
import { FailureSignatureSchema, FingerprintSchema } from './fingerprint';
import { SettingsSchema, type Settings } from './settings';
import { CaptureLevelSchema } from './capture-level';
import { ShownPartSchema } from './viewport-cut';
import { NetworkSettingsSchema } from './network';

/**
 * 2: `settings.redaction` holds how many custom rules of each kind applied, not the rules (a bundle is
 * shared, and the rules describe what its owner keeps secret). Readers take version 1 through
 * `migrate_1_to_2` (`src/bundle-format/modernize-manifest.ts`).
 */
export const MANIFEST_VERSION = 2;

/** How many custom redaction rules of each kind were in force: the rules themselves stay with the recorder. */
export const RedactionRuleCountsSchema = z
  .object({
    selectors: z.number().int().nonnegative(),
    fieldNamePatterns: z.number().int().nonnegative(),
    textPatterns: z.number().int().nonnegative(),
  })
  .strict();
export type RedactionRuleCounts = z.infer<typeof RedactionRuleCountsSchema>;

/** Where the bundle was to be delivered: the mode and what is delivered, never the endpoint's credentials. */
export const ManifestUploadSchema = z.object({ mode: z.enum(['off', 's3', 'presigned']), include: z.enum(['all', 'failures']) }).strict();

/**
 * The settings a bundle was recorded with, as its manifest carries them: the redaction rules as counts,
 * the upload as its mode only (absent from bundles written before delivery existed).
 */
export const ManifestSettingsSchema = SettingsSchema.omit({ redaction: true, upload: true, network: true })
  .extend({ redaction: RedactionRuleCountsSchema, upload: ManifestUploadSchema.optional(), network: NetworkSettingsSchema.optional() })
  .strict();
export type ManifestSettings = z.infer<typeof ManifestSettingsSchema>;

/** The settings as a manifest carries them: every setting that explains the bundle, the redaction rules counted. */
export function manifestSettings(settings: Settings): ManifestSettings {
  const { selectors, fieldNamePatterns, textPatterns } = settings.redaction;
  return {
    ...settings,
    redaction: { selectors: selectors.length, fieldNamePatterns: fieldNamePatterns.length, textPatterns: textPatterns.length },
    upload: { mode: settings.upload.mode, include: settings.upload.include },
  };
}

/**
 * One re-redaction of the bundle after it was written (`afr redact`): when, by which tool, with how
 * many custom patterns (never the patterns: they say what the bundle's owner keeps secret), and
 * whether the frames and the clip were left out.
 */
export const RedactionPassSchema = z
  .object({
    at: z.string(),
    tool: z.string(),
    custom_patterns: z.number().int().nonnegative(),
    frames_dropped: z.boolean(),
  })
  .strict();
export type RedactionPass = z.infer<typeof RedactionPassSchema>;

/**
 * The viewport a frame shows, in CSS px, as the recorder knew it when the frame was taken: the page's
 * layout viewport (`innerWidth`×`innerHeight`, what a step's target rect and point are measured
 * against), its device pixel ratio, where it was scrolled to, and how the frame draws it. A step's
 * target lands on the frame at (CSS px) × `image_scale`; without it, × the frame's width over `width`.
 * Absent from frames of bundles written before frames said their viewport: readers then use
 * `snapshot.json`'s viewport.
 */
export const FrameViewportSchema = z
  .object({
    width: z.number().finite().positive(),
    height: z.number().finite().positive(),
    device_pixel_ratio: z.number().finite().positive(),
    /**
     * Image px per CSS px, when the frame said the surface it shows (a screencast frame's metadata, the
     * tab's size for `captureVisibleTab`) and the tab's zoom was known: image px per surface DIP ×
     * page scale × browser zoom. It differs from the frame's width over `width` when the driver
     * emulates a viewport unlike the window (the frame then shows its top left, cropped or with blank
     * beside it).
     */
    image_scale: z.number().finite().positive().optional(),
    /** The top document's scroll position (CSS px) in the picture, when known. */
    scroll: z.object({ x: z.number().finite(), y: z.number().finite() }).strict().optional(),
    /**
     * The part of the viewport the frame shows, from its top left (CSS px), when it shows less than
     * all of it: the window is smaller than the viewport the driver emulates (the debugger's infobar
     * takes its bottom; `SILENT_DEBUGGER_SWITCH` keeps it away). Absent: the frame shows it all.
     */
    shown: ShownPartSchema.optional(),
  })
  .strict();
export type FrameViewport = z.infer<typeof FrameViewportSchema>;

export const ArtifactSchema = z.object({ name: z.string(), size_bytes: z.number().int().nonnegative() }).strict();
export type Artifact = z.infer<typeof ArtifactSchema>;

/** `manifest.json`: what the bundle is and what it contains. */
export const ManifestSchema = z
  .object({
    version: z.literal(MANIFEST_VERSION),
    bundle_id: z.string(),
    run_id: z.string(),
    /** `failure` for a failure bundle; `success` for a passing run bundled at `runEnd` (persistMode `always`). */
    status: z.enum(['failure', 'success']),
    /** ISO time of the oldest frame or step in the bundle. */
    started_at: z.string(),
    /** ISO time of the failure signal. */
    ended_at: z.string(),
    /** The failure's reason code; for a `success` bundle, `run_passed`. */
    failure_reason: z.string(),
    failure_label: z.string().nullable(),
    failure_message: z.string().nullable(),
    url_at_failure: z.string().nullable(),
    tab_id: z.number().int().nullable(),
    frame_count: z.number().int().nonnegative(),
    /** One entry per file under `frames/`, in time order; a run of identical captures is one entry (`captures`). */
    frames: z.array(
      z
        .object({
          name: z.string(),
          captured_at: z.string(),
          ts: z.number(),
          duration_ms: z.number().positive(),
          width: z.number().int().positive(),
          height: z.number().int().positive(),
          source: z.enum(['visibleTab', 'screencast', 'screenshot']),
          /**
           * How many byte-identical captures in a row this entry stands for, when more than one: the
           * file is stored once, `duration_ms` covers them all and `source` is the first one's. Absent: one capture.
           */
          captures: z.number().int().min(2).optional(),
          /** Capture time of the last of those `captures` (ms since the epoch); present with `captures`. */
          last_ts: z.number().optional(),
          /** The viewport the frame shows (CSS px); absent from bundles written before frames said it. */
          viewport: FrameViewportSchema.optional(),
        })
        .strict(),
    ),
    step_count: z.number().int().nonnegative(),
    buffer_seconds: z.number(),
    /** What this bundle holds: `metadata` (timeline), `trace` (+ snapshot, diagnostics), `screenshots` (+ frames), `video`/`full` (+ clip). */
    capture_level: CaptureLevelSchema,
    /** The agent's run, as declared with `runStart` (null fields when it declared none). */
    run: z
      .object({
        agent: z.string().nullable(),
        agent_version: z.string().nullable(),
        task: z.string().nullable(),
        started_at: z.string().nullable(),
        outcome: z.enum(['passed', 'failed']).nullable(),
      })
      .strict(),
    clip: z
      .object({
        name: z.literal('failure.mp4'),
        duration_seconds: z.number().nonnegative(),
        encoder: z.string(),
      })
      .strict()
      .nullable(),
    capture: z
      .object({
        /** The setting; each frame's own source is in `frames[].source`. */
        source: z.enum(['auto', 'screencast', 'visibleTab']),
        fps: z.number(),
        interval_ms: z.number(),
        /** Sensitive regions filled in the frames of this bundle's window, in all (pixel redaction). */
        masked_regions: z.number().int().nonnegative(),
        /** Frames not stored because their sensitive regions were not known in time. */
        dropped_frames: z.number().int().nonnegative(),
        jpeg_quality: z.number(),
        max_buffer_bytes: z.number(),
      })
      .strict(),
    /** The settings of the moment of the failure; the custom redaction rules only as counts. */
    settings: ManifestSettingsSchema,
    artifacts: z.array(ArtifactSchema),
    extension: z.object({ name: z.string(), version: z.string() }).strict(),
    /**
     * Each time the text of the bundle was masked again after it was written (`afr redact`), oldest
     * first. Absent on a bundle as the recorder wrote it.
     */
    redacted_after: z.array(RedactionPassSchema).optional(),
    /**
     * What the failure is, whoever met it: one cause on other orders, users, times and pages of one kind
     * has one `fingerprint`; `signature` is what it is made of. Absent from success bundles and from
     * bundles written before fingerprints.
     */
    fingerprint: FingerprintSchema.optional(),
    signature: FailureSignatureSchema.optional(),
  })
  .strict();
export type Manifest = z.infer<typeof ManifestSchema>;

import type { z } from 'zod';
import { CLIP_FILE, DIAGNOSTICS_FILE, MANIFEST_FILE, OUTLINE_FILE, SNAPSHOT_FILE, STEPS_FILE } from '../bundle-format/file-names';
import { frameSpanSeconds } from '../bundle-format/frame-time';
import { BUNDLE_JSON_FILES, STEP_SNAPSHOT_FILES } from '../bundle-format/file-registry';
import { openLazyBundleZip, readBundleFiles, type LazyBundleArchive } from '../bundle-format/open-zip';
import { parseJsonFile } from '../bundle-format/parse-files';
import {
  TolerantDiagnosticsSchema,
  TolerantManifestSchema,
  TolerantSnapshotSchema,
  TolerantStepsSchema,
  type TolerantManifest,
} from '../bundle-format/tolerant-schemas';
import { failureTime, lastEntries, recentConsoleErrors, recentFailedRequests, stackLines, stepLine, type StepLine } from '../bundle-format/views';
import { readMp4Duration } from './mp4-duration';
import { collectMoov } from './mp4-moov';

/** `afr inspect`'s step lines are bundle-format's (`stepLine`), as `afr steps` shows them. */
export type { StepLine };

/** Everything `afr inspect` prints; also its `--json` output. A section is null when its file is unreadable. */
export interface BundleInspection {
  bundle_id: string | null;
  run_id: string | null;
  status: string | null;
  failure: {
    reason: string;
    label: string | null;
    message: string | null;
    url: string | null;
    /** ISO time of the failure signal. */
    time: string;
    tab_id: number | null;
    /** The signal's kind (`exception`, `http_5xx`, `assertion`…); null in bundles from before kinds. */
    kind: string | null;
    origin: string | null;
    http_status: number | null;
  } | null;
  /** ISO time of the oldest frame or step. */
  recording_started_at: string | null;
  snapshot: { title: string; url: string; node_count: number; truncated: boolean } | null;
  steps: { total: number; last: StepLine[] } | null;
  errors: {
    /** First lines of the failure's stack. */
    stack: string[];
    warnings: string[];
    /** The last console errors and failed requests before the failure (newer bundles only). */
    console_errors: { at_ms: number; message: string }[];
    failed_requests: { at_ms: number; method: string | null; url: string; status: number | null; error_text: string | null }[];
    clip_error: string | null;
    capture_errors: number;
    quota_errors: number;
    last_capture_error: string | null;
    /** Frames the recorder dropped rather than store them unmasked, by reason (`viewport-mismatch`…); absent from older bundles. */
    dropped_frames: { total: number; by_reason: Record<string, number> } | null;
    debugger_error: string | null;
    snapshot_error: string | null;
    suppressed_signals: number;
  } | null;
  /** `captures`: the moments the frames stand for (a run of identical captures is one frame file). */
  frames: { count: number; captures: number; first_at: string | null; span_seconds: number; bytes: number; sizes: string[] } | null;
  /** The pages at the steps (`snapshots/page-NNN.json`), as the zip's directory declares them; null when there are none. */
  step_pages: { count: number; bytes: number } | null;
  /** `outline.md`, the page outline for a model; null when the bundle has none. */
  outline: { bytes: number } | null;
  /** Null when the bundle has no clip (`errors.clip_error` may say why). */
  clip: { encoder: string | null; manifest_seconds: number | null; mp4_seconds: number | null; bytes: number } | null;
  bundle: { bytes: number; files: number };
  /** Files that are missing, not JSON or not shaped like a bundle file: their sections are null. */
  unreadable: { file: string; error: string }[];
  /**
   * False when a file the bundle must have is missing, or a file it has could not be read (`afr
   * inspect` then exits 1, after printing what it could read). A file the capture level leaves out
   * (`snapshot.json`, `diagnostics.json` of a `metadata` bundle) does not count.
   */
  complete: boolean;
}

export interface InspectOptions {
  /** How many of the last steps to list; 0 lists them all. */
  lastSteps: number;
  /** How many lines of the failure's stack to keep. */
  stackLines: number;
  /** How many of the last console errors and of the last failed requests to list. */
  lastErrors: number;
}

export const DEFAULT_INSPECT_OPTIONS: InspectOptions = { lastSteps: 10, stackLines: 5, lastErrors: 5 };

/**
 * Reads a bundle zip into the summary `afr inspect` prints, through the tolerant readings of its files.
 * Only the JSON files are inflated: frame sizes come from the zip's directory, and the clip is streamed
 * through for its `moov` box, so a bundle of hundreds of megabytes costs little more than its zip.
 * Throws `BundleZipError` for bytes that are not a zip or a zip past the readers' bounds.
 */
export async function inspectBundle(zip: Uint8Array, options: InspectOptions = DEFAULT_INSPECT_OPTIONS): Promise<BundleInspection> {
  const lazy = await openLazyBundleZip(zip);
  const archive = await readBundleFiles(lazy, [MANIFEST_FILE, DIAGNOSTICS_FILE, SNAPSHOT_FILE, STEPS_FILE]);
  const unreadable: BundleInspection['unreadable'] = [];
  let complete = true;
  const read = <T>(file: string, schema: z.ZodType<T>): T | null => {
    const json = parseJsonFile(archive, file, schema);
    if (json.ok) return json.value;
    if (json.problem !== 'missing' || isRequiredFile(file)) complete = false;
    unreadable.push({ file, error: json.problem === 'schema' ? `not shaped like a bundle file: ${json.error}` : json.error });
    return null;
  };
  const manifest = read(MANIFEST_FILE, TolerantManifestSchema);
  const diagnostics = read(DIAGNOSTICS_FILE, TolerantDiagnosticsSchema);
  const snapshotFile = read(SNAPSHOT_FILE, TolerantSnapshotSchema);
  const steps = read(STEPS_FILE, TolerantStepsSchema);

  const signal = diagnostics?.failure ?? null;
  const failureTs = failureTime({ manifest, diagnostics });
  const lastSteps = steps && lastEntries(steps.steps, options.lastSteps);
  return {
    bundle_id: manifest?.bundle_id ?? diagnostics?.bundle_id ?? steps?.bundle_id ?? null,
    run_id: manifest?.run_id ?? null,
    status: manifest?.status ?? null,
    failure: manifest
      ? {
          reason: manifest.failure_reason,
          label: manifest.failure_label,
          message: manifest.failure_message,
          url: manifest.url_at_failure,
          time: manifest.ended_at,
          tab_id: manifest.tab_id,
          kind: signal?.kind ?? null,
          origin: signal?.origin ?? null,
          http_status: signal?.http_status ?? null,
        }
      : signal && {
          reason: signal.reason,
          label: signal.label,
          message: signal.message,
          url: signal.url,
          time: new Date(signal.ts).toISOString(),
          tab_id: signal.tab_id,
          kind: signal.kind ?? null,
          origin: signal.origin,
          http_status: signal.http_status,
        },
    recording_started_at: manifest?.started_at ?? null,
    snapshot: snapshotFile?.snapshot ?? null,
    steps: steps && lastSteps && { total: steps.steps.length, last: lastSteps.map((s) => stepLine(s, failureTs)) },
    errors: diagnostics && {
      stack: stackLines(signal?.stack ?? null, options.stackLines),
      warnings: diagnostics.warnings,
      console_errors: recentConsoleErrors(diagnostics, failureTs, options.lastErrors),
      failed_requests: recentFailedRequests(diagnostics, failureTs, options.lastErrors),
      clip_error: diagnostics.clip_error,
      capture_errors: diagnostics.capture.capture_errors,
      quota_errors: diagnostics.capture.quota_errors,
      last_capture_error: diagnostics.capture.last_capture_error,
      dropped_frames:
        diagnostics.capture.dropped_frames === undefined ? null : { total: diagnostics.capture.dropped_frames, by_reason: { ...diagnostics.capture.dropped_frames_by_reason } },
      debugger_error: diagnostics.debugger.error,
      snapshot_error: snapshotFile?.error ?? null,
      suppressed_signals: diagnostics.suppressed_signals,
    },
    frames: manifest && describeFrames(lazy, manifest.frames),
    step_pages: describeStepPages(lazy),
    outline: lazy.has(OUTLINE_FILE) ? { bytes: lazy.declaredBytes(OUTLINE_FILE) ?? 0 } : null,
    clip: await describeClip(lazy, manifest?.clip ?? null),
    bundle: { bytes: lazy.zipBytes, files: lazy.names.length },
    unreadable,
    complete,
  };
}

const isRequiredFile = (name: string): boolean => Object.values(BUNDLE_JSON_FILES).some((f) => f.name === name && f.required);

/** Frame bytes as the zip's directory declares them: no frame is inflated (a lying size fails `afr validate`). */
function describeFrames(archive: LazyBundleArchive, frames: TolerantManifest['frames']): NonNullable<BundleInspection['frames']> {
  return {
    count: frames.length,
    captures: frames.reduce((sum, f) => sum + (f.captures ?? 1), 0),
    first_at: frames[0]?.captured_at ?? null,
    span_seconds: frameSpanSeconds(frames),
    bytes: frames.reduce((sum, f) => sum + (archive.declaredBytes(f.name) ?? 0), 0),
    sizes: [...new Set(frames.map((f) => `${f.width}x${f.height}`))],
  };
}

/** How many pages at the steps the zip holds and their bytes, none inflated. */
function describeStepPages(archive: LazyBundleArchive): BundleInspection['step_pages'] {
  const pages = archive.names.filter((name) => STEP_SNAPSHOT_FILES.isName(name));
  return pages.length ? { count: pages.length, bytes: pages.reduce((sum, name) => sum + (archive.declaredBytes(name) ?? 0), 0) } : null;
}

/** The clip's length from its `moov` box, streamed through without keeping the media. */
async function describeClip(archive: LazyBundleArchive, clip: TolerantManifest['clip']): Promise<BundleInspection['clip']> {
  const hasMp4 = archive.has(CLIP_FILE);
  if (!hasMp4 && !clip) return null;
  let mp4Seconds: number | null = null;
  if (hasMp4) {
    const moov = collectMoov();
    await archive.scan(CLIP_FILE, (chunk) => moov.push(chunk));
    const box = moov.moov();
    mp4Seconds = box ? (readMp4Duration(box)?.seconds ?? null) : null;
  }
  return {
    encoder: clip?.encoder ?? null,
    manifest_seconds: clip?.duration_seconds ?? null,
    mp4_seconds: mp4Seconds,
    bytes: archive.declaredBytes(CLIP_FILE) ?? 0,
  };
}

import JSZip from 'jszip';
import { ManifestSchema, type Artifact, type FrameViewport, type Manifest } from '../../schemas/manifest';
import type { Diagnostics } from '../../schemas/diagnostics';
import type { SnapshotFile } from '../../schemas/snapshot';
import type { StepsFile } from '../../schemas/steps';
import type { HarFile } from '../../schemas/network';
import type { AgentFile } from '../../schemas/agent-calls';
import { describeZodError } from '../shared/zod-error';
import { CLIP_FILE, OUTLINE_FILE, SUMMARY_FILE, VIEWER_FILE, frameFileName } from '../bundle-format/file-names';
import { BUNDLE_JSON_FILES, STEP_SNAPSHOT_FILES, stepSnapshotText, type BundleJsonFile } from '../bundle-format/file-registry';
import type { StepSnapshotFile } from '../../schemas/timeline';
import { settleViewerHtml } from '../bundle-format/viewer-html';
import { renderSummary } from '../bundle-format/summary-md';
import type { FrameSource } from '../ring/ports';

export interface BundleContents {
  manifest: Omit<Manifest, 'artifacts' | 'frame_count' | 'frames'>;
  /** Null below capture level `trace`: the file is left out. */
  snapshot: SnapshotFile | null;
  /** Null below capture level `trace`: the file is left out. */
  diagnostics: Diagnostics | null;
  steps: StepsFile;
  /** `network.har`: the failing tab's requests in the window, masked; null: the file is left out. */
  har?: HarFile | null;
  /** `agent.json`: the agent's model and tool calls in the window, masked; null: the file is left out. */
  agent?: AgentFile | null;
  /**
   * JPEG frames in time order. `captures` (more than 1): identical captures in a row this frame stands
   * for, the last taken at `lastTs` (`mergeRepeatedFrames`).
   */
  frames: readonly { jpeg: Uint8Array; ts: number; durationMs: number; width: number; height: number; source?: FrameSource; captures?: number; lastTs?: number; viewport?: FrameViewport }[];
  clip: Uint8Array | null;
  /** `outline.md` (capture level `trace` and up). */
  outline?: string;
  /** The pages at each step (`snapshots/`), capture level `trace` and up. */
  stepSnapshots?: readonly { name: string; file: StepSnapshotFile }[];
  /**
   * The standalone viewer script (`virtual:afr-viewer-script`); when given, the zip gets `viewer.html`,
   * which shows the bundle from `file://` once extracted.
   */
  viewerScript?: string;
}

/** A bundle file failed its schema: a recorder bug, reported instead of writing a bad bundle. */
export class BundleValidationError extends Error {
  override readonly name = 'BundleValidationError';
}

function validated<T>(file: BundleJsonFile<T>, value: unknown): T {
  const parsed = file.schema.safeParse(value);
  if (!parsed.success) throw new BundleValidationError(`${file.name} does not match its schema: ${describeZodError(parsed.error)}`);
  return parsed.data;
}

const asJson = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/**
 * Lays out and zips a bundle. Every JSON file is validated against its schema before it is written;
 * JPEG and MP4 data are stored uncompressed (they are compressed already).
 */
export async function writeBundle(contents: BundleContents): Promise<{ zip: Uint8Array; manifest: Manifest }> {
  const zip = new JSZip();
  const artifacts: Artifact[] = [];
  // manifest.json comes first in the archive: a placeholder now, its content once sizes are known.
  zip.file(BUNDLE_JSON_FILES.manifest.name, '');
  const add = (name: string, data: string | Uint8Array, compress: boolean) => {
    zip.file(name, data, { compression: compress ? 'DEFLATE' : 'STORE', date: new Date(contents.manifest.ended_at) });
    artifacts.push({ name, size_bytes: typeof data === 'string' ? new TextEncoder().encode(data).byteLength : data.byteLength });
  };

  const snapshot = contents.snapshot && validated(BUNDLE_JSON_FILES.snapshot, contents.snapshot);
  const diagnostics = contents.diagnostics && validated(BUNDLE_JSON_FILES.diagnostics, contents.diagnostics);
  const steps = validated(BUNDLE_JSON_FILES.steps, contents.steps);
  if (snapshot) add(BUNDLE_JSON_FILES.snapshot.name, asJson(snapshot), true);
  if (diagnostics) add(BUNDLE_JSON_FILES.diagnostics.name, asJson(diagnostics), true);
  add(BUNDLE_JSON_FILES.steps.name, asJson(steps), true);
  // One line: a HAR holds bodies, which indentation would only pad.
  if (contents.agent) add(BUNDLE_JSON_FILES.agent.name, asJson(validated(BUNDLE_JSON_FILES.agent, contents.agent)), true);
  const har = contents.har ? validated(BUNDLE_JSON_FILES.har, contents.har) : null;
  if (har) add(BUNDLE_JSON_FILES.har.name, `${JSON.stringify(har)}\n`, true);
  // Each page's text as written, also embedded in viewer.html so the offline viewer shows the page at every step.
  const stepPages: Record<string, string> = {};
  for (const page of contents.stepSnapshots ?? []) {
    if (!STEP_SNAPSHOT_FILES.isName(page.name)) throw new BundleValidationError(`${page.name}: not a name of ${STEP_SNAPSHOT_FILES.pattern}`);
    stepPages[page.name] = stepSnapshotText(validated({ ...STEP_SNAPSHOT_FILES, name: page.name, required: false }, page.file));
    add(page.name, stepPages[page.name]!, true);
  }
  contents.frames.forEach((frame, i) => add(frameFileName(i), frame.jpeg, false));
  if (contents.clip) add(CLIP_FILE, contents.clip, false);

  const frames = contents.frames.map((f, i) => ({
    name: frameFileName(i),
    captured_at: new Date(f.ts).toISOString(),
    ts: f.ts,
    duration_ms: f.durationMs,
    width: f.width,
    height: f.height,
    source: f.source ?? 'visibleTab',
    ...(f.captures && f.captures > 1 ? { captures: f.captures, last_ts: f.lastTs ?? f.ts } : {}),
    ...(f.viewport ? { viewport: f.viewport } : {}),
  }));
  const draft = { ...contents.manifest, frame_count: frames.length, frames };
  add(SUMMARY_FILE, renderSummary(draft, diagnostics, steps.steps), true);
  if (contents.outline !== undefined) add(OUTLINE_FILE, contents.outline, true);
  let manifest = ManifestSchema.parse({ ...draft, artifacts });
  if (contents.viewerScript !== undefined) {
    const viewer = await settleViewerHtml(contents.viewerScript, manifest, {
      steps,
      diagnostics,
      snapshot,
      // The offline viewer's Network panel reads it from the page (file:// cannot fetch the zip's files).
      ...(har ? { har } : {}),
      ...(Object.keys(stepPages).length > 0 ? { step_snapshots: stepPages } : {}),
    });
    if (!viewer) throw new BundleValidationError('viewer.html: its size did not settle');
    manifest = viewer.manifest;
    zip.file(VIEWER_FILE, viewer.html, { compression: 'DEFLATE', date: new Date(contents.manifest.ended_at) });
  }
  zip.file(BUNDLE_JSON_FILES.manifest.name, asJson(validated(BUNDLE_JSON_FILES.manifest, manifest)), {
    compression: 'DEFLATE',
    date: new Date(contents.manifest.ended_at),
  });
  const bytes = await zip.generateAsync({ type: 'uint8array', compression: 'STORE' });
  return { zip: bytes, manifest };
}

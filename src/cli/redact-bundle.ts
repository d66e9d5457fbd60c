import { compareCaptureLevels } from '../../schemas/capture-level';
import type { Diagnostics } from '../../schemas/diagnostics';
import { MANIFEST_VERSION, type Artifact, type Manifest } from '../../schemas/manifest';
import type { SnapshotFile } from '../../schemas/snapshot';
import type { StepsFile } from '../../schemas/steps';
import type { StepSnapshotFile } from '../../schemas/timeline';
import { CLIP_FILE, MANIFEST_FILE, OUTLINE_FILE, SUMMARY_FILE, VIEWER_FILE, isFrameFileName } from '../bundle-format/file-names';
import { BUNDLE_JSON_FILES, STEP_SNAPSHOT_FILES, isBundleFileName, stepSnapshotText, type BundleJsonFile } from '../bundle-format/file-registry';
import type { BundleArchive } from '../bundle-format/open-zip';
import { outlineBundle } from '../bundle-format/page-outline';
import { readJsonFile } from '../bundle-format/parse-files';
import { renderSummary } from '../bundle-format/summary-md';
import { settleViewerHtml } from '../bundle-format/viewer-html';
import { zipBundleFiles } from '../bundle-format/zip-bundle';
import { describeZodError } from '../shared/zod-error';
import type { BundleJsonSchemas } from './bundle-json-schemas';
import { createRemasker, fixedWords, remaskJson, type RemaskCounts } from './remask-json';
import type { ExpectedViewer } from './viewer-check';

/** How to re-redact a bundle. */
export interface RedactOptions {
  /** Custom text patterns (global regexes), on top of the built-in detectors. */
  patterns: readonly RegExp[];
  /** Leave out `frames/*` and `failure.mp4`; otherwise they are copied unchanged. */
  dropFrames: boolean;
  /** When the redaction happens (recorded in the manifest). */
  now: Date;
  /** What did it, as the manifest records it: `afr 0.1.0`. */
  tool: string;
  /** This afr's viewer, to write `viewer.html` again with the masked data; null when it cannot make one. */
  viewer: ExpectedViewer | null;
}

/** What `redactBundle` made: the new zip, what it masked, and what the person should know (one line each). */
export interface RedactResult {
  zip: Uint8Array;
  counts: RemaskCounts;
  notes: string[];
}

/** The bundle cannot be re-redacted; `message` is one line saying why. */
export class RedactError extends Error {
  override readonly name = 'RedactError';
}

/** An ISO time as the recorder writes it (`2026-11-22T12:00:00.000Z`): never page text. */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?Z$/;

const asJson = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
const encode = (text: string) => new TextEncoder().encode(text);

/** One JSON file of the archive as its schema reads it (a version 1 manifest brought to the current one), or null when absent. */
function readFile<T>(archive: BundleArchive, file: BundleJsonFile<T>): T | null {
  const read = readJsonFile(archive, file.name);
  if (!read.ok) {
    if (read.problem === 'missing' && !file.required) return null;
    throw new RedactError(`${file.name}: ${read.error}`);
  }
  const parsed = file.schema.safeParse(file.modernize ? file.modernize(read.value) : read.value);
  if (!parsed.success) throw new RedactError(`${file.name} does not match its schema (afr validate says more): ${describeZodError(parsed.error)}`);
  return parsed.data;
}

/** `value` masked, and still a valid `file`: a mask that would break the format is an error, never undone. */
function remasked<T>(file: BundleJsonFile<T>, value: T | null, mask: (text: string) => string, keep: (text: string) => boolean): T | null {
  if (value === null) return null;
  const parsed = file.schema.safeParse(remaskJson(value, mask, keep));
  if (!parsed.success) throw new RedactError(`${file.name}: masking would break its format: ${describeZodError(parsed.error)}`);
  return parsed.data;
}

/** The manifest without frames and clip: what the bundle holds is now at most the `trace` level. */
function withoutFrames(manifest: Manifest, hasTrace: boolean): Manifest {
  const level = hasTrace ? 'trace' : 'metadata';
  return {
    ...manifest,
    frames: [],
    frame_count: 0,
    clip: null,
    capture_level: compareCaptureLevels(manifest.capture_level, level) > 0 ? level : manifest.capture_level,
  };
}

/**
 * Masks a bundle's text again, with today's detectors and `options.patterns`: every string of every
 * JSON file, the pages at the steps (`snapshots/`) included (keys, numbers and shape kept; file names,
 * times and the format's fixed words left as they are), then `summary.md`, `outline.md` and
 * `viewer.html` (with the masked step pages) written again from the masked data, the manifest's
 * artifact sizes brought up to date and the pass recorded in `redacted_after`. Frames and the clip are
 * copied unchanged (pixels cannot be re-masked) or, with `dropFrames`, left out. A file that is not part
 * of the bundle format is left out. Throws `RedactError` when the bundle is not one it can read.
 */
export async function redactBundle(archive: BundleArchive, schemas: BundleJsonSchemas, options: RedactOptions): Promise<RedactResult> {
  const original = {
    manifest: readFile(archive, BUNDLE_JSON_FILES.manifest)!,
    steps: readFile(archive, BUNDLE_JSON_FILES.steps)!,
    diagnostics: readFile(archive, BUNDLE_JSON_FILES.diagnostics),
    snapshot: readFile(archive, BUNDLE_JSON_FILES.snapshot),
    har: readFile(archive, BUNDLE_JSON_FILES.har),
  };
  const words = fixedWords(Object.values(schemas));
  const keep = (text: string) => words.has(text) || ISO_TIME.test(text) || isBundleFileName(text) || text === original.manifest.bundle_id;
  const remasker = createRemasker(options.patterns);
  const mask = (text: string) => remasker.mask(text);
  let manifest = remasked(BUNDLE_JSON_FILES.manifest, original.manifest, mask, keep)!;
  const steps: StepsFile = remasked(BUNDLE_JSON_FILES.steps, original.steps, mask, keep)!;
  let diagnostics: Diagnostics | null = remasked(BUNDLE_JSON_FILES.diagnostics, original.diagnostics, mask, keep);
  const snapshot: SnapshotFile | null = remasked(BUNDLE_JSON_FILES.snapshot, original.snapshot, mask, keep);
  // network.har: every string again (URLs, headers, bodies' text), names and numbers kept.
  const har = remasked(BUNDLE_JSON_FILES.har, original.har, mask, keep);
  // The pages at the steps: each checked and masked like the fixed files; kept as text, as the zip and viewer.html hold them.
  const pages = new Map<string, StepSnapshotFile>();
  for (const name of archive.files.keys()) {
    if (!STEP_SNAPSHOT_FILES.isName(name)) continue;
    const file: BundleJsonFile<StepSnapshotFile> = { name, schema: STEP_SNAPSHOT_FILES.schema, required: true };
    pages.set(name, remasked(file, readFile(archive, file), mask, keep)!);
  }
  const pageTexts = new Map([...pages].map(([name, page]) => [name, stepSnapshotText(page)]));

  const notes: string[] = [];
  const isPixels = (name: string) => name === CLIP_FILE || isFrameFileName(name);
  const names = [...archive.files.keys()];
  const pixels = names.filter(isPixels);
  if (options.dropFrames) {
    manifest = withoutFrames(manifest, diagnostics !== null || snapshot !== null);
    if (diagnostics) diagnostics = { ...diagnostics, capture: { ...diagnostics.capture, frames_in_bundle: 0 } };
    if (pixels.length) notes.push(`left out ${pixels.length} file${pixels.length === 1 ? '' : 's'} of pixels (frames/, ${CLIP_FILE})`);
  } else if (pixels.length) {
    notes.push(`copied ${pixels.length} file${pixels.length === 1 ? '' : 's'} of pixels (frames/, ${CLIP_FILE}) unchanged: pixels cannot be re-masked, --drop-frames leaves them out`);
  }
  const strangers = names.filter((name) => !isBundleFileName(name));
  if (strangers.length) notes.push(`left out ${strangers.length} file${strangers.length === 1 ? '' : 's'} that are not part of the bundle format: ${strangers.slice(0, 5).join(', ')}`);

  // The files as they will be zipped, in the archive's order; the manifest comes last (it lists the others' sizes).
  const out = new Map<string, Uint8Array>();
  const text: Record<string, unknown> = {
    [BUNDLE_JSON_FILES.steps.name]: steps,
    [BUNDLE_JSON_FILES.diagnostics.name]: diagnostics,
    [BUNDLE_JSON_FILES.snapshot.name]: snapshot,
    [BUNDLE_JSON_FILES.har.name]: har,
  };
  for (const name of names) {
    if (name === MANIFEST_FILE || name === VIEWER_FILE || !isBundleFileName(name) || (options.dropFrames && isPixels(name))) continue;
    if (name === SUMMARY_FILE) out.set(name, encode(renderSummary(manifest, diagnostics, steps.steps)));
    // Built by the recorder's own builder from the masked pages: its text is never copied.
    else if (name === OUTLINE_FILE) out.set(name, encode(outlineBundle(snapshot?.snapshot ?? null, steps.steps, pages)));
    else if (pageTexts.has(name)) out.set(name, encode(pageTexts.get(name)!));
    else if (Object.hasOwn(text, name)) out.set(name, encode(asJson(text[name])));
    else out.set(name, archive.files.get(name)!);
  }

  const artifacts: Artifact[] = manifest.artifacts.flatMap((a) => {
    if (a.name === VIEWER_FILE) return [];
    const bytes = out.get(a.name);
    // A file listed but absent from the original stays listed: `afr validate` reports it.
    if (!bytes) return archive.files.has(a.name) ? [] : [a];
    return [{ name: a.name, size_bytes: bytes.byteLength }];
  });
  const pass = { at: options.now.toISOString(), tool: options.tool, custom_patterns: options.patterns.length, frames_dropped: options.dropFrames };
  manifest = { ...manifest, artifacts, redacted_after: [...(manifest.redacted_after ?? []), pass] };

  let viewerHtml: string | null = null;
  if (archive.files.has(VIEWER_FILE)) {
    const why = viewerRefusal(original.manifest, options.viewer);
    const stepPages = pageTexts.size > 0 ? { step_snapshots: Object.fromEntries(pageTexts) } : {};
    const viewer = why === null ? await settleViewerHtml(options.viewer!.script, manifest, { steps, diagnostics, snapshot, ...(har ? { har } : {}), ...stepPages }) : null;
    if (viewer) {
      manifest = viewer.manifest;
      viewerHtml = viewer.html;
    } else notes.push(`left out ${VIEWER_FILE}: ${why ?? 'its size did not settle'} (the original embeds the unmasked data)`);
  }

  const files = new Map<string, Uint8Array | string>([[MANIFEST_FILE, asJson(manifest)], ...out]);
  if (viewerHtml !== null) files.set(VIEWER_FILE, viewerHtml);
  return { zip: await zipBundleFiles(files, new Date(manifest.ended_at)), counts: remasker.counts, notes };
}

/** Why this afr cannot write the bundle's `viewer.html` again, or null when it can. */
function viewerRefusal(manifest: Manifest, viewer: ExpectedViewer | null): string | null {
  if (!viewer) return 'this afr could not make its viewer';
  if (manifest.extension.version !== viewer.version || manifest.version !== MANIFEST_VERSION) {
    return `written by recorder ${manifest.extension.version}, and this afr writes the viewer of ${viewer.version} only`;
  }
  return null;
}

import { AGENT_FILE, CLIP_FILE, FRAMES_DIR, MANIFEST_FILE, NETWORK_HAR_FILE, STEPS_FILE, VIEWER_FILE } from '../bundle-format/file-names';
import { BundleZipError, openBundleZip, type BundleArchive } from '../bundle-format/open-zip';
import { STEP_SNAPSHOT_FILES, modernizerOf } from '../bundle-format/file-registry';
import { readJsonFile } from '../bundle-format/parse-files';
import type { BundleJsonSchemas } from './bundle-json-schemas';
import { checkStructure } from './bundle-structure';
import { formatBytes } from './format-bytes';
import { compileJsonSchemas, type JsonFileCheck, type Problem } from './json-schema-check';
import { readMp4Duration } from './mp4-duration';
import { errorMessage } from '../shared/error-message';
import { escapeControls } from './safe-text';
import { checkViewerHtml, type ExpectedViewer } from './viewer-check';

export type { Problem } from './json-schema-check';

/** What `afr validate` found. */
export interface ValidationReport {
  valid: boolean;
  bundle_id: string | null;
  /** Every problem, in check order: JSON files against their schemas first, then the structure. */
  problems: Problem[];
  /** One line: what a valid bundle holds, or how many problems an invalid one has. */
  summary: string;
}

/** The name `Problem.file` uses for the zip as a whole. */
export const ARCHIVE = '(archive)';

// Compiling the schemas is most of the work for a small bundle: once per set of schemas.
const compiled = new WeakMap<BundleJsonSchemas, JsonFileCheck>();

/**
 * Checks a bundle zip: each JSON file (and each page at a step, `snapshots/page-NNN.json`) against its
 * published JSON Schema (ajv, draft 2020-12), then the
 * manifest against the files actually present (see `checkStructure`), then `viewer.html` against the
 * page this recorder version writes (`checkViewerHtml`; `viewer` is asked only when there is one). A zip
 * that cannot be opened, or is past the bounds every reader keeps (`ZipLimits`), is one problem of the
 * archive.
 */
export async function validateBundle(zip: Uint8Array, schemas: BundleJsonSchemas, viewer: () => Promise<ExpectedViewer>): Promise<ValidationReport> {
  const checkJson = compiled.get(schemas) ?? compileJsonSchemas(schemas);
  compiled.set(schemas, checkJson);
  let archive: BundleArchive;
  try {
    archive = await openBundleZip(zip);
  } catch (error) {
    if (!(error instanceof BundleZipError)) throw error;
    return { valid: false, bundle_id: null, problems: [{ file: ARCHIVE, pointer: '', message: error.message }], summary: `invalid: ${error.message}` };
  }

  const problems: Problem[] = [];
  const json = new Map<string, unknown>();
  for (const file of Object.keys(schemas)) {
    if (file === STEP_SNAPSHOT_FILES.pattern) continue;
    const read = readJsonFile(archive, file);
    // Bundles written before the network log have no network.har (one the manifest lists is checked below).
    // Nor has a bundle of a window without the agent's calls an agent.json (steps pointing into one are checked below).
    if (!read.ok && read.problem === 'missing' && (file === NETWORK_HAR_FILE || file === AGENT_FILE)) continue;
    if (!read.ok) {
      problems.push({ file, pointer: '', message: read.error });
      continue;
    }
    // An earlier version of the file is checked as the current one it reads as (a version 1 manifest
    // through migrate_1_to_2): the published schemas describe the current format only.
    const modernize = modernizerOf(file);
    const value = modernize ? modernize(read.value) : read.value;
    json.set(file, value);
    problems.push(...checkJson(file, value));
  }
  // The pages at the steps: each against the one schema of their pattern of names.
  for (const file of archive.files.keys()) {
    if (!STEP_SNAPSHOT_FILES.isName(file) || !schemas[STEP_SNAPSHOT_FILES.pattern]) continue;
    const read = readJsonFile(archive, file);
    if (!read.ok) {
      problems.push({ file, pointer: '', message: read.error });
      continue;
    }
    json.set(file, read.value);
    problems.push(...checkJson(STEP_SNAPSHOT_FILES.pattern, read.value).map((p) => ({ ...p, file })));
  }
  problems.push(...checkStructure(archive, json));
  if (archive.files.has(VIEWER_FILE)) problems.push(...(await checkViewer(archive, json, viewer)));

  const manifest = json.get(MANIFEST_FILE) as Record<string, unknown> | undefined;
  const bundleId = typeof manifest?.bundle_id === 'string' ? manifest.bundle_id : null;
  const steps = json.get(STEPS_FILE) as { steps?: unknown } | undefined;
  const clip = archive.files.get(CLIP_FILE);
  const clipSeconds = clip ? readMp4Duration(clip)?.seconds : undefined;
  const holds = [
    `${archive.files.size} files`,
    `${[...archive.files.keys()].filter((n) => n.startsWith(FRAMES_DIR)).length} frames`,
    `${Array.isArray(steps?.steps) ? steps.steps.length : 0} steps`,
    clip ? `${CLIP_FILE} ${clipSeconds === undefined ? '?' : clipSeconds.toFixed(1)} s` : 'no clip',
    formatBytes(zip.byteLength),
  ].join(', ');
  return report(bundleId, problems, holds);
}

/** `checkViewerHtml`, or one problem when this afr cannot make its own viewer to compare with. */
async function checkViewer(archive: BundleArchive, json: ReadonlyMap<string, unknown>, viewer: () => Promise<ExpectedViewer>): Promise<Problem[]> {
  let expected: ExpectedViewer;
  try {
    expected = await viewer();
  } catch (error) {
    return [{ file: VIEWER_FILE, pointer: '', message: `cannot be checked: this afr could not make its own viewer (${errorMessage(error)})` }];
  }
  return checkViewerHtml(archive, json, expected);
}

function report(bundleId: string | null, problems: Problem[], holds: string): ValidationReport {
  const valid = problems.length === 0;
  const summary = valid
    ? `valid: ${bundleId ?? '(no bundle id)'} (${holds})`
    : `invalid: ${problems.length} problem${problems.length === 1 ? '' : 's'}${bundleId ? ` in ${bundleId}` : ''}`;
  return { valid, bundle_id: bundleId, problems, summary };
}

/**
 * Lines for the terminal: the summary, then at most `maxProblems` problems, one per line. File names and
 * messages may quote the bundle: each field is escaped, so none can break a line in two or drive the terminal.
 */
export function validationLines(result: ValidationReport, maxProblems = 20): string[] {
  const lines = [escapeControls(result.summary)];
  // A zip that cannot be opened has that one problem, and its summary says it already: one line.
  const unopened = result.problems.length === 1 && result.problems[0]?.file === ARCHIVE;
  const problems = unopened ? [] : result.problems;
  // A problem quotes the zip's entry names and values: each field escaped, so none can start a line.
  for (const p of problems.slice(0, maxProblems)) lines.push(`  ${escapeControls(p.file)}${p.pointer ? ` ${escapeControls(p.pointer)}` : ''}: ${escapeControls(p.message)}`);
  const more = problems.length - maxProblems;
  if (more > 0) lines.push(`  … and ${more} more (--json lists them all)`);
  return lines;
}

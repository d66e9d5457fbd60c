import { MANIFEST_VERSION } from '../../schemas/manifest';
import type { BundleData } from '../bundle-format/bundle-data';
import { DIAGNOSTICS_FILE, MANIFEST_FILE, NETWORK_HAR_FILE, SNAPSHOT_FILE, STEPS_FILE, VIEWER_FILE } from '../bundle-format/file-names';
import { STEP_SNAPSHOT_FILES } from '../bundle-format/file-registry';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../bundle-format/json-depth';
import type { BundleArchive } from '../bundle-format/open-zip';
import { readJsonFile } from '../bundle-format/parse-files';
import { buildViewerHtml, embedScript, embeddedDataText, viewerCsp } from '../bundle-format/viewer-html';
import { VIEWER_CSS } from '../bundle-format/viewer-styles';
import { errorMessage } from '../shared/error-message';
import type { Problem } from './json-schema-check';

/*
 * `viewer.html` is the one file of a bundle that runs code when it is opened, and whoever opens it got
 * the bundle from someone else. A valid bundle's viewer.html is exactly the page this recorder version
 * writes for the data it embeds: the check rebuilds that page and compares the two byte for byte, so a
 * swapped script, an extra element or a loosened CSP are all found, and the embedded data must be the
 * bundle's own JSON files (else the viewer shows something other than what `afr` reads).
 */

/** The viewer `afr` knows: the recorder version it belongs to and the script that version puts in viewer.html. */
export interface ExpectedViewer {
  /** The recorder's version (`package.json`), as `manifest.json` `extension.version` names it. */
  version: string;
  /** The standalone viewer script, as `bundleViewerScript` makes it from these sources. */
  script: string;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether two parsed JSON values are the same, whatever the order of their keys. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
  }
  if (!isObject(a) || !isObject(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && sameJson(a[key], b[key]));
}

/** Which recorder wrote the bundle, by its manifest: null when the manifest does not say. */
function writtenBy(archive: BundleArchive): { version: string | null; manifestVersion: unknown } | null {
  const read = readJsonFile(archive, MANIFEST_FILE);
  if (!read.ok || !isObject(read.value)) return null;
  const extension = read.value.extension;
  return { version: isObject(extension) && typeof extension.version === 'string' ? extension.version : null, manifestVersion: read.value.version };
}

/** Why the page differs from the one this version writes, in the words a person needs. */
function describeDifference(html: string, expected: ExpectedViewer): string {
  if (!html.includes(`<script>${embedScript(expected.script)}</script>`)) {
    return `its script is not the viewer recorder ${expected.version} writes (it was changed after the bundle was written, or written by another build): do not open it`;
  }
  if (!html.includes(`<style>${VIEWER_CSS}</style>`)) return `its styles are not the ones recorder ${expected.version} writes: do not open it`;
  return `the page around the viewer differs from the one recorder ${expected.version} writes (its CSP, elements or attributes were changed): do not open it`;
}

/**
 * Checks `viewer.html`, when the bundle has one, against the page this recorder version writes for the
 * data it embeds, then that data against the bundle's JSON files (`json`, as `validateBundle` read them).
 * A bundle whose manifest names another recorder version is reported as such: its viewer cannot be
 * checked, which is not the same as changed.
 */
export async function checkViewerHtml(archive: BundleArchive, json: ReadonlyMap<string, unknown>, expected: ExpectedViewer): Promise<Problem[]> {
  const bytes = archive.files.get(VIEWER_FILE);
  if (!bytes) return [];
  const problem = (message: string, pointer = ''): Problem[] => [{ file: VIEWER_FILE, pointer, message }];

  const author = writtenBy(archive);
  if (author && (author.version !== expected.version || author.manifestVersion !== MANIFEST_VERSION)) {
    const theirs = `${author.version ?? 'an unknown version'}, manifest version ${JSON.stringify(author.manifestVersion)}`;
    return problem(
      `written by another recorder version (${theirs}; this afr checks recorder ${expected.version}, manifest version ${MANIFEST_VERSION}): its script cannot be checked, open it only if you trust where the bundle comes from`,
    );
  }

  let html: string;
  try {
    html = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (error) {
    return problem(`not UTF-8 text (${errorMessage(error)})`);
  }
  const text = embeddedDataText(html);
  if (text === null) return problem('carries no bundle data element: not a page this recorder writes');
  if (nestsDeeperThan(text)) return problem(`its bundle data is nested more than ${MAX_JSON_DEPTH} levels deep`);
  let data: BundleData;
  try {
    data = JSON.parse(text) as BundleData;
  } catch (error) {
    return problem(`its bundle data is not valid JSON (${errorMessage(error)})`);
  }
  if (html !== buildViewerHtml(expected.script, data, await viewerCsp(expected.script))) return problem(describeDifference(html, expected));

  const embedded: [string, unknown][] = [
    [MANIFEST_FILE, isObject(data) ? data.manifest : undefined],
    [STEPS_FILE, isObject(data) ? data.steps : undefined],
    [DIAGNOSTICS_FILE, isObject(data) ? data.diagnostics : undefined],
    [SNAPSHOT_FILE, isObject(data) ? data.snapshot : undefined],
    // Embedded only when the zip holds one: absent and null both mean none.
    [NETWORK_HAR_FILE, isObject(data) ? (data.har ?? null) : undefined],
  ];
  const problems = embedded
    .filter(([file, value]) => !sameJson(value, json.get(file) ?? null))
    .map(([file]) => ({ file: VIEWER_FILE, pointer: '', message: `its embedded ${file} is not the bundle's ${file}: the viewer would show other data than the files` }));
  return [...problems, ...checkEmbeddedPages(archive, isObject(data) ? data.step_snapshots : undefined)];
}

/**
 * The step pages `viewer.html` embeds (`step_snapshots`, text by zip path) are the zip's own, text for
 * text, when it embeds any: else the viewer would show other pages at the steps than `afr` reads.
 */
function checkEmbeddedPages(archive: BundleArchive, embedded: unknown): Problem[] {
  if (embedded === undefined) return [];
  const problem = (message: string): Problem => ({ file: VIEWER_FILE, pointer: '/step_snapshots', message });
  if (!isObject(embedded)) return [problem('its embedded step_snapshots is not an object of page texts by zip path')];
  const decoder = new TextDecoder();
  const zipped = [...archive.files.keys()].filter((name) => STEP_SNAPSHOT_FILES.isName(name));
  const out: Problem[] = [];
  for (const name of zipped) {
    const text = embedded[name];
    if (text === undefined) out.push(problem(`does not embed ${name}, which the zip holds`));
    else if (text !== decoder.decode(archive.files.get(name)!)) out.push(problem(`its embedded ${name} is not the zip's ${name}: the viewer would show another page at that step`));
  }
  for (const name of Object.keys(embedded)) if (!archive.files.has(name) || !STEP_SNAPSHOT_FILES.isName(name)) out.push(problem(`embeds ${JSON.stringify(name)}, which is not a page in the zip`));
  return out;
}

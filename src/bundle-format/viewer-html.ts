import type { Manifest } from '../../schemas/manifest';
import type { BundleData } from './bundle-data';
import { VIEWER_FILE } from './file-names';
import { bytesToBase64 } from '../shared/base64';
import { VIEWER_CSS } from './viewer-styles';

/*
 * `viewer.html`, the bundle's standalone viewer page: its frame (CSP, styles, the element that carries
 * the bundle's JSON) is part of the format, written by the writer and read by the page's script, which
 * the build supplies (`virtual:afr-viewer-script`).
 */

/** Id of the `<script type="application/json">` element that carries the bundle's JSON files. */
export const EMBEDDED_DATA_ID = 'afr-data';
/** Id of the element the standalone viewer renders into. */
export const VIEWER_ROOT_ID = 'afr-root';

/**
 * What `viewer.html` embeds: the bundle's JSON files and, by zip path (`snapshots/page-003.json`), the
 * text of each step's page exactly as the zip holds it. The pages stay text inside the data so the
 * viewer parses one only when its step is shown (a long run's bundle holds hundreds), and so the
 * page still parses back to the very data it was built from (`afr validate` rebuilds it that way).
 */
export interface ViewerData extends BundleData {
  step_snapshots?: Record<string, string>;
}

/** `'sha256-…'`: a CSP hash source for an inline element whose text is `text` (CSP 3, "hash-source"). */
export async function cspHash(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return `'sha256-${bytesToBase64(digest)}'`;
}

/**
 * The page's CSP for a viewer script. The page may load its own frames and clip (relative `file:`
 * paths, or `'self'` when served) and run the one inline script and style it was built with, named by
 * their hashes: nothing else runs, even if the page is edited to carry another script, and opening a
 * bundle makes no request. (The embedded data is a `<script type="application/json">` data block:
 * it is never executed, so it needs no hash.)
 */
export async function viewerCsp(script: string): Promise<string> {
  return [
    "default-src 'none'",
    "img-src 'self' data: blob: file:",
    "media-src 'self' data: blob: file:",
    `style-src ${await cspHash(VIEWER_CSS)}`,
    `script-src ${await cspHash(embedScript(script))}`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/**
 * JSON that is safe inside a `<script>` element: every `<` becomes `\u003c`, so no text from a page
 * (`</script>`, `<!--`) can end the element or change how the HTML parser reads it.
 */
export function embedJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/**
 * Script text that is safe inside a `<script>` element. `\x3C` means `<` in JS strings, template
 * literals and regular expressions, the only places `</script` or `<!--` can occur in bundled code.
 */
export function embedScript(script: string): string {
  return script.replace(/<(\/script|!--)/gi, '\\x3C$1');
}

/**
 * `viewer.html` for a bundle zip: one self-contained page (inline CSS, the viewer script, the bundle's
 * JSON) that shows the bundle when the zip is extracted and the file opened from `file://`. Frames and
 * the clip are referenced by relative path. `csp` is `viewerCsp(script)` (computed once: the writer
 * builds the page a few times while its size settles). Pure string work, so the service worker can
 * call it; `afr validate` rebuilds the page the same way to check one.
 */
export function buildViewerHtml(script: string, data: ViewerData, csp: string): string {
  // The title stays static: the script sets the real one, so no bundle text is ever parsed as HTML.
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Agent Flight Recorder bundle</title>
<style>${VIEWER_CSS}</style>
</head>
<body>
<div id="${VIEWER_ROOT_ID}"><noscript>This bundle viewer needs JavaScript. The data is in manifest.json, steps.json, diagnostics.json and snapshot.json beside this file.</noscript></div>
${EMBEDDED_DATA_START}${embedJson(data)}</script>
<script>${embedScript(script)}</script>
</body>
</html>
`;
}

const utf8Length = (text: string) => new TextEncoder().encode(text).byteLength;

/**
 * `viewer.html` with the manifest it embeds. The page embeds the manifest, and the manifest lists
 * `viewer.html` with its size (appended to `manifest.artifacts`): the size is found by iteration (it
 * only changes by the number of digits it takes, so two or three rounds do). Null if it never settles.
 * `files.step_snapshots`: the text of each `snapshots/` file as written to the zip, by its path.
 */
export async function settleViewerHtml(script: string, manifest: Manifest, files: Omit<ViewerData, 'manifest'>): Promise<{ html: string; manifest: Manifest } | null> {
  const csp = await viewerCsp(script);
  let size = 0;
  for (let round = 0; round < 8; round++) {
    const candidate: Manifest = { ...manifest, artifacts: [...manifest.artifacts, { name: VIEWER_FILE, size_bytes: size }] };
    const html = buildViewerHtml(script, { ...files, manifest: candidate }, csp);
    const length = utf8Length(html);
    if (length === size) return { html, manifest: candidate };
    size = length;
  }
  return null;
}

/** What starts the element that carries the data, exactly as `buildViewerHtml` writes it. */
export const EMBEDDED_DATA_START = `<script type="application/json" id="${EMBEDDED_DATA_ID}">`;

/**
 * The text of the data element of a `viewer.html`, found without parsing HTML (the command line has no
 * DOM): `embedJson` leaves no `<` in it, so it ends at the first `</script>`. Null when there is none.
 */
export function embeddedDataText(html: string): string | null {
  const start = html.indexOf(EMBEDDED_DATA_START);
  if (start < 0) return null;
  const from = start + EMBEDDED_DATA_START.length;
  const end = html.indexOf('</script>', from);
  return end < 0 ? null : html.slice(from, end);
}

/**
 * The bundle data a `viewer.html` carries, as the writer embedded it. It was checked against the schemas
 * when the bundle was written; the page's script reads it without zod. Throws when the element is
 * missing or its text is not JSON.
 */
export function readEmbeddedData(doc: Document): ViewerData {
  return JSON.parse(doc.getElementById(EMBEDDED_DATA_ID)?.textContent ?? '') as ViewerData;
}

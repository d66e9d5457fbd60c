import type { BundleData } from './bundle-data';
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
 * The page may load its own frames and clip (relative `file:` paths, or `'self'` when served) and run
 * its own inline script; nothing else, so opening a bundle makes no request.
 */
export const VIEWER_CSP = [
  "default-src 'none'",
  "img-src 'self' data: blob: file:",
  "media-src 'self' data: blob: file:",
  "style-src 'unsafe-inline'",
  "script-src 'unsafe-inline'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

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
 * the clip are referenced by relative path. Pure string work, so the service worker can call it.
 */
export function buildViewerHtml(script: string, data: BundleData): string {
  // The title stays static: the script sets the real one, so no bundle text is ever parsed as HTML.
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${VIEWER_CSP}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Agent Flight Recorder bundle</title>
<style>${VIEWER_CSS}</style>
</head>
<body>
<div id="${VIEWER_ROOT_ID}"><noscript>This bundle viewer needs JavaScript. The data is in manifest.json, steps.json, diagnostics.json and snapshot.json beside this file.</noscript></div>
<script type="application/json" id="${EMBEDDED_DATA_ID}">${embedJson(data)}</script>
<script>${embedScript(script)}</script>
</body>
</html>
`;
}

/**
 * The bundle data a `viewer.html` carries, as the writer embedded it. It was checked against the schemas
 * when the bundle was written; the page's script reads it without zod. Throws when the element is
 * missing or its text is not JSON.
 */
export function readEmbeddedData(doc: Document): BundleData {
  return JSON.parse(doc.getElementById(EMBEDDED_DATA_ID)?.textContent ?? '') as BundleData;
}

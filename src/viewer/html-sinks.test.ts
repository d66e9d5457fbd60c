import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * The pages that show bundle and page text (the viewer, `viewer.html`, the operator pages) build DOM only
 * through `dom.ts`'s `h`, where a string is a text node: no source of theirs may hand a string to an
 * HTML parser. `viewer-app.test.ts` renders a hostile bundle; this keeps the next change from adding a sink.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const FOLDERS = ['src/viewer', 'src/ui', 'entrypoints'];
/** Every way a string becomes markup in a page. */
const HTML_SINK = /\.(innerHTML|outerHTML|srcdoc)\s*[+]?=|insertAdjacentHTML|document\.write|createContextualFragment|parseFromString|setHTMLUnsafe/;

function sources(folder: string): string[] {
  return readdirSync(path.join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx|js|mjs)$/.test(entry.name) && !/\.test\.ts$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

describe('the pages that show bundles', () => {
  it('never hand a string to the HTML parser', () => {
    const files = FOLDERS.flatMap(sources);
    expect(files.length).toBeGreaterThan(20);
    for (const file of files) expect(readFileSync(file, 'utf8'), path.relative(ROOT, file)).not.toMatch(HTML_SINK);
  });
});

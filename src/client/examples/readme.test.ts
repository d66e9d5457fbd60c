import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));
const readme = readFileSync(path.resolve(here, '../../../README.md'), 'utf8');

/** The `// #region readme` block of an example file, without its indentation. */
function readmeRegion(file: string): string {
  const text = readFileSync(path.join(here, file), 'utf8');
  const block = /\n([ \t]*)\/\/ #region readme\n([\s\S]*?)\n[ \t]*\/\/ #endregion/.exec(text);
  if (!block) throw new Error(`${file} has no // #region readme`);
  const indent = block[1]!;
  return block[2]!
    .split('\n')
    .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line))
    .join('\n');
}

// The README's client examples are these files' code: the Playwright one runs in e2e/client.spec.ts,
// the wait one in e2e/bundle-keeping.spec.ts, the Puppeteer one is type-checked.
describe('README examples', () => {
  it.each(['playwright-example.ts', 'puppeteer-example.ts', 'wait-example.ts'])('show the code of %s as it is', (file) => {
    expect(readme).toContain(readmeRegion(file));
  });
});

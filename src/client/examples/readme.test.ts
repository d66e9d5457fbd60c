import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { recorderCode } from './playwright-mcp-example';

const here = path.dirname(fileURLToPath(import.meta.url));
const readme = readFileSync(path.resolve(here, '../../../README.md'), 'utf8');

/** Every `// #region readme` block of an example file, without its indentation. */
function readmeRegions(file: string): string[] {
  const text = readFileSync(path.join(here, file), 'utf8');
  const blocks = [...text.matchAll(/\n([ \t]*)\/\/ #region readme\n([\s\S]*?)\n[ \t]*\/\/ #endregion/g)];
  if (blocks.length === 0) throw new Error(`${file} has no // #region readme`);
  return blocks.map(([, indent = '', body = '']) =>
    body
      .split('\n')
      .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line))
      .join('\n'),
  );
}

// The README's client examples are these files' code: the Playwright one runs in e2e/client.spec.ts,
// the driver recipes (MCP, a running browser, raw CDP) in e2e/driver-recipes.spec.ts, the wait one in
// e2e/bundle-keeping.spec.ts, the Puppeteer launch one is type-checked.
describe('README examples', () => {
  it.each(['playwright-example.ts', 'puppeteer-example.ts', 'wait-example.ts', 'playwright-mcp-example.ts', 'running-browser-example.ts', 'raw-cdp-example.ts'])(
    'show the code of %s as it is',
    (file) => {
      for (const region of readmeRegions(file)) expect(readme).toContain(region);
    },
  );

  it('give an agent on Playwright MCP the code the MCP example runs', () => {
    expect(readme).toContain(`\`\`\`js\n${recorderCode('() => afr.listBundles()')}\n\`\`\``);
  });
});

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { docText } from '../test/support/doc-block';
import { recorderCode } from './playwright-mcp-example';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Every `// #region docs` block of an example file, without its indentation. */
function docRegions(file: string): string[] {
  const text = readFileSync(path.join(here, file), 'utf8');
  const blocks = [...text.matchAll(/\n([ \t]*)\/\/ #region docs\n([\s\S]*?)\n[ \t]*\/\/ #endregion/g)];
  if (blocks.length === 0) throw new Error(`${file} has no // #region docs`);
  return blocks.map(([, indent = '', body = '']) =>
    body
      .split('\n')
      .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line))
      .join('\n'),
  );
}

// The docs' client examples are these files' code, each on the page that shows it: the README's short
// one and the Playwright one run in e2e/client.spec.ts, the driver recipes (MCP, a running browser, raw
// CDP) in e2e/driver-recipes.spec.ts, the wait one in e2e/bundle-keeping.spec.ts; the Puppeteer one is
// type-checked.
describe('the examples shown in the docs', () => {
  it.each([
    ['quick-example.ts', 'README.md'],
    ['playwright-example.ts', 'docs/drivers/playwright.md'],
    ['puppeteer-example.ts', 'docs/drivers/puppeteer.md'],
    ['wait-example.ts', 'docs/drivers/where-bundles-go.md'],
    ['playwright-mcp-example.ts', 'docs/drivers/playwright-mcp.md'],
    ['running-browser-example.ts', 'docs/drivers/running-browser.md'],
    ['raw-cdp-example.ts', 'docs/drivers/raw-cdp.md'],
  ])('show the code of %s as it is, in %s', (file, page) => {
    const doc = docText(page);
    for (const region of docRegions(file)) expect(doc).toContain(region);
  });

  it('give an agent on Playwright MCP the code the MCP example runs', () => {
    expect(docText('docs/drivers/playwright-mcp.md')).toContain(`\`\`\`js\n${recorderCode('() => afr.listBundles()')}\n\`\`\``);
  });
});

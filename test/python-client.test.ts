import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { docText } from './support/doc-block';

const PACKAGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../clients/python');
/** Debian's interpreter (CI installs python3 and python3-websockets); `PYTHON` picks another. */
const PYTHON = process.env.PYTHON ?? '/usr/bin/python3';

// The Python client's unit tests (unittest, with fakes of the browser) run as part of `npm test`.
describe('Python client (clients/python)', () => {
  it('passes its unit tests under python3', () => {
    const run = spawnSync(PYTHON, ['-m', 'unittest', 'discover', '-s', 'tests', '-t', '.'], { cwd: PACKAGE_DIR, encoding: 'utf8', timeout: 120_000 });
    expect(run.error, `cannot run ${PYTHON}: install python3 and python3-websockets`).toBeUndefined();
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/\nOK\s*$/);
  });
});

/** Every `# region readme` block of a Python example, without its indentation. */
function readmeRegions(file: string): string[] {
  const text = readFileSync(path.join(PACKAGE_DIR, 'examples', file), 'utf8');
  const blocks = [...text.matchAll(/\n([ \t]*)# region readme\n([\s\S]*?)\n[ \t]*# endregion/g)];
  if (blocks.length === 0) throw new Error(`${file} has no # region readme`);
  return blocks.map(([, indent = '', body = '']) =>
    body
      .split('\n')
      .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line))
      .join('\n'),
  );
}

// The docs' Python examples are the code of these files, which e2e/python-client.spec.ts runs.
describe('Python examples in the docs', () => {
  it.each([
    ['failure_flow.py', 'clients/python/README.md'],
    ['load_and_connect.py', 'clients/python/README.md'],
    ['load_and_connect.py', 'docs/drivers/branded-chrome.md'],
  ])('show the code of %s as it is, in %s', (file, page) => {
    const doc = docText(page);
    for (const region of readmeRegions(file)) expect(doc).toContain(`\`\`\`python\n${region}\n\`\`\``);
  });
});

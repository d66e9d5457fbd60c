import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

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

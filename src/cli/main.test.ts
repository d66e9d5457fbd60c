import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import JSZip from 'jszip';
import { afterAll, describe, expect, it } from 'vitest';
import { renderJsonSchemas } from '../../schemas/generate';
import { BUNDLE_ID, editBundle, makeBundle } from '../../test/fixtures/cli/make-bundle';
import { bundleSchemaFileNames, type BundleJsonSchemas } from './bundle-json-schemas';
import { EXIT_INVALID, EXIT_OK, EXIT_USAGE, USAGE, parseArgs, runCli, type CliIo, type Command } from './main';

describe('parseArgs', () => {
  it.each<[string[], Command]>([
    [[], { name: 'usage-error', message: 'missing command' }],
    [['--help'], { name: 'help' }],
    [['-h'], { name: 'help' }],
    [['help'], { name: 'help' }],
    [['validate', 'b.zip', '--help'], { name: 'help' }],
    [['inspect', 'b.zip'], { name: 'inspect', file: 'b.zip', json: false, steps: 10 }],
    [['inspect', '--json', 'b.zip', '--steps', '3'], { name: 'inspect', file: 'b.zip', json: true, steps: 3 }],
    [['--steps=0', 'inspect', 'b.zip'], { name: 'inspect', file: 'b.zip', json: false, steps: 0 }],
    [['validate', 'b.zip', '--json'], { name: 'validate', file: 'b.zip', json: true }],
    [['inspect', '--', '--odd-name.zip'], { name: 'inspect', file: '--odd-name.zip', json: false, steps: 10 }],
    [['inspect'], { name: 'usage-error', message: 'inspect needs a bundle: afr inspect <bundle.zip>' }],
    [['inspect', 'a.zip', 'b.zip'], { name: 'usage-error', message: 'one bundle at a time (extra: b.zip)' }],
    [['unzip', 'b.zip'], { name: 'usage-error', message: 'unknown command "unzip"' }],
    [['inspect', 'b.zip', '--verbose'], { name: 'usage-error', message: 'unknown option --verbose' }],
    [['inspect', 'b.zip', '--steps'], { name: 'usage-error', message: '--steps needs a whole number (0 for all steps)' }],
    [['inspect', 'b.zip', '--steps', '-1'], { name: 'usage-error', message: '--steps needs a whole number (0 for all steps)' }],
    [['validate', 'b.zip', '--steps', '2'], { name: 'usage-error', message: '--steps applies to inspect only' }],
  ])('%j', (argv, command) => {
    expect(parseArgs(argv)).toEqual(command);
  });
});

const rendered = renderJsonSchemas();
const schemas: BundleJsonSchemas = Object.fromEntries(
  Object.entries(bundleSchemaFileNames()).map(([file, schemaFile]) => [file, JSON.parse(rendered[schemaFile] ?? '{}') as object]),
);

/** An in-memory `CliIo`: files by path, and what was written. */
function fakeIo(files: Record<string, Uint8Array>) {
  const out = { stdout: '', stderr: '' };
  const io: CliIo = {
    readFile: async (file) => {
      const bytes = files[file];
      if (!bytes) throw Object.assign(new Error(`ENOENT: no such file or directory, open '${file}'`), { code: 'ENOENT' });
      return bytes;
    },
    loadSchemas: () => schemas,
    stdout: (text) => void (out.stdout += text),
    stderr: (text) => void (out.stderr += text),
  };
  return { io, out };
}

describe('runCli', () => {
  const bundles = (async () => {
    const valid = await makeBundle();
    return {
      'valid.zip': valid,
      'broken.zip': await editBundle(valid, (files) => files.delete('frames/frame_0001.jpeg')),
      'notes.txt': new TextEncoder().encode('not a zip'),
    };
  })();

  it.each<[string[], number, RegExp, RegExp | '']>([
    [['--help'], EXIT_OK, /^afr: inspect and validate/, ''],
    [[], EXIT_USAGE, /^$/, /^afr: missing command\n\nafr: inspect and validate/],
    [['inspect', 'missing.zip'], EXIT_USAGE, /^$/, /^afr: missing\.zip: no such file\n$/],
    [['inspect', 'notes.txt'], EXIT_INVALID, /^$/, /^afr: notes\.txt: not a zip archive \(/],
    [['validate', 'notes.txt'], EXIT_INVALID, /^invalid: 1 problem\n {2}\(archive\): not a zip archive/, ''],
    [['inspect', 'valid.zip'], EXIT_OK, /reason {4}page_exception[^]*Last 10 of 12 steps[^]*\(redacted\)[^]*clip {6}failure\.mp4 1\.50 s/, ''],
    [['validate', 'valid.zip'], EXIT_OK, new RegExp(`^valid: ${BUNDLE_ID} \\(10 files, 4 frames, 12 steps, failure\\.mp4 1\\.5 s, [\\d.]+ KiB\\)\\n$`), ''],
    [['validate', 'broken.zip'], EXIT_INVALID, /^invalid: 2 problems in afr-\S+\n {2}frames\/frame_0001\.jpeg manifest\.json#\/artifacts\/3: listed in the manifest’s artifacts but not in the zip\n/, ''],
  ])('afr %j exits %i', async (argv, code, stdout, stderr) => {
    const { io, out } = fakeIo(await bundles);
    expect(await runCli(argv, io)).toBe(code);
    expect(out.stdout).toMatch(stdout);
    if (stderr === '') expect(out.stderr).toBe('');
    else expect(out.stderr).toMatch(stderr);
  });

  it('prints machine-readable reports with --json', async () => {
    const { io, out } = fakeIo(await bundles);
    expect(await runCli(['validate', 'broken.zip', '--json'], io)).toBe(EXIT_INVALID);
    const report = JSON.parse(out.stdout) as { valid: boolean; problems: { file: string }[] };
    expect(report.valid).toBe(false);
    expect(report.problems[0]?.file).toBe('frames/frame_0001.jpeg');

    out.stdout = '';
    expect(await runCli(['inspect', 'valid.zip', '--json', '--steps', '2'], io)).toBe(EXIT_OK);
    const inspection = JSON.parse(out.stdout) as { failure: { reason: string }; steps: { last: unknown[] } };
    expect(inspection.failure.reason).toBe('page_exception');
    expect(inspection.steps.last).toHaveLength(2);
  });
});

/*
 * The executable itself, as a user runs it: from another working directory, by absolute path, with tsx
 * compiling the sources on the fly. (Validation of a good bundle is covered in-process above: here the
 * schemas on disk are used, which may lag a zod change until `npm run schemas`.)
 */
describe('bin/afr.mjs', () => {
  const bin = fileURLToPath(new URL('../../bin/afr.mjs', import.meta.url));
  const dir = mkdtempSync(path.join(os.tmpdir(), 'afr-cli-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const run = async (...args: string[]) => {
    try {
      const { stdout, stderr } = await promisify(execFile)(process.execPath, [bin, ...args], { cwd: dir });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  };

  it('runs from another directory: help, inspect, and the exit codes', async () => {
    const zip = path.join(dir, `${BUNDLE_ID}.zip`);
    writeFileSync(zip, await makeBundle());
    writeFileSync(path.join(dir, 'notes.txt'), 'not a zip');
    const deep = new JSZip();
    deep.file('a/b/c/d/e/manifest.json', '{}');
    writeFileSync(path.join(dir, 'deep.zip'), await deep.generateAsync({ type: 'uint8array' }));
    const [help, inspect, missing, notZip, tooDeep] = await Promise.all([
      run('--help'),
      run('inspect', zip),
      run('inspect', 'nope.zip'),
      run('validate', 'notes.txt'),
      run('inspect', 'deep.zip'),
    ]);
    expect(help).toEqual({ code: 0, stdout: USAGE, stderr: '' });
    expect(inspect).toMatchObject({ code: 0, stderr: '' });
    expect(inspect.stdout).toContain('failure: page_exception');
    expect(missing).toEqual({ code: 2, stdout: '', stderr: 'afr: nope.zip: no such file\n' });
    expect(notZip).toMatchObject({ code: 1, stderr: '' });
    expect(notZip.stdout).toMatch(/^invalid: 1 problem\n {2}\(archive\): not a zip archive/);
    expect(tooDeep).toEqual({ code: 1, stdout: '', stderr: 'afr: deep.zip: a/b/c/d/e/: nested 5 levels deep, more than the 4 a bundle may have\n' });
  }, 30_000);
});

import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import JSZip from 'jszip';
import { afterAll, describe, expect, it } from 'vitest';
import { renderJsonSchemas } from '../../schemas/generate';
import { BUNDLE_ID, bundleContents, editBundle, editJson, makeBundle, makeV1Bundle } from '../../test/fixtures/cli/make-bundle';
import { ORDER_PATTERN, PLANTED, makeSecretBundle } from '../../test/fixtures/cli/secret-bundle';
import { openBundleZip } from '../bundle-format/open-zip';
import { bundleSchemaFileNames, type BundleJsonSchemas } from './bundle-json-schemas';
import { loadExpectedViewer } from './node-io';
import { EXIT_INVALID, EXIT_OK, EXIT_USAGE, type CliIo } from './command';
import { USAGE, parseArgs, runCli, type Invocation as Command } from './main';

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
    [['redact', 'b.zip', '--out', 'c.zip'], { name: 'redact', file: 'b.zip', out: 'c.zip', patterns: [], dropFrames: false, force: false }],
    [
      ['redact', '--pattern', 'ORD-\\d{6}', 'b.zip', '--pattern=x', '--drop-frames', '--out=c.zip', '--force'],
      { name: 'redact', file: 'b.zip', out: 'c.zip', patterns: ['ORD-\\d{6}', 'x'], dropFrames: true, force: true },
    ],
    [['redact', 'b.zip'], { name: 'usage-error', message: 'redact needs --out <file>: afr redact <bundle.zip> --out <redacted.zip>' }],
    [['redact', 'b.zip', '--out'], { name: 'usage-error', message: '--out needs a value' }],
    [['redact', 'b.zip', '--out', 'c.zip', '--json'], { name: 'usage-error', message: '--json does not apply to redact' }],
    [['inspect', 'b.zip', '--drop-frames'], { name: 'usage-error', message: '--drop-frames applies to redact only' }],
    [['ls', 's3://runs/fleet'], { name: 'ls', location: 's3://runs/fleet', since: '24h', json: false }],
    [['ls', 's3://runs/fleet', '--since', '7d', '--reason=http_5xx', '--agent', 'bot', '--json'], { name: 'ls', location: 's3://runs/fleet', since: '7d', reason: 'http_5xx', agent: 'bot', json: true }],
    [['ls'], { name: 'usage-error', message: 'ls needs a location: afr ls s3://bucket/prefix' }],
    [['ls', 's3://runs', '--out', 'x'], { name: 'usage-error', message: '--out does not apply to ls' }],
    [['pull', 's3://runs/fleet/afr-20261125T100000Z-aaaaaa', '--out', 'bundles'], { name: 'pull', location: 's3://runs/fleet/afr-20261125T100000Z-aaaaaa', out: 'bundles', maxBytes: 1024 ** 3, json: false }],
    [['pull', 's3://runs/x', '--max-bytes', '5M'], { name: 'pull', location: 's3://runs/x', out: '.', maxBytes: 5 * 1024 ** 2, json: false }],
    [['pull', 's3://runs/x', '--max-bytes', 'lots'], { name: 'usage-error', message: '--max-bytes needs a size: bytes, or with K, M or G (512M)' }],
    [['pull', 's3://runs/x', '--since', '1d'], { name: 'usage-error', message: '--since does not apply to pull' }],
    [['ls', '--help'], { name: 'help' }],
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
    loadViewer: async () => ({ version: '0.1.0', script: 'document.title = "viewer";' }),
    writeFile: async (file, bytes, overwrite) => {
      if (files[file] && !overwrite) throw Object.assign(new Error(`EEXIST: file already exists, open '${file}'`), { code: 'EEXIST' });
      files[file] = bytes;
    },
    sameFile: async (a, b) => a === b && files[a] !== undefined,
    version: () => '0.1.0',
    now: () => new Date(Date.UTC(2026, 10, 23, 9, 30)),
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
      'v1.zip': await makeV1Bundle(),
    };
  })();

  it.each<[string[], number, RegExp, RegExp | '']>([
    [['--help'], EXIT_OK, /^afr: inspect and validate/, ''],
    [[], EXIT_USAGE, /^$/, /^afr: missing command\n\nafr: inspect and validate/],
    [['inspect', 'missing.zip'], EXIT_USAGE, /^$/, /^afr: missing\.zip: no such file\n$/],
    [['inspect', 'notes.txt'], EXIT_INVALID, /^$/, /^afr: notes\.txt: not a zip archive \(/],
    [['validate', 'notes.txt'], EXIT_INVALID, /^invalid: not a zip archive \([^\n]*\)\n$/, ''],
    [['inspect', 'valid.zip'], EXIT_OK, /reason {4}page_exception[^]*Last 10 of 12 steps[^]*\(redacted\)[^]*clip {6}failure\.mp4 1\.50 s/, ''],
    [['validate', 'valid.zip'], EXIT_OK, new RegExp(`^valid: ${BUNDLE_ID} \\(10 files, 4 frames, 12 steps, failure\\.mp4 1\\.5 s, [\\d.]+ KiB\\)\\n$`), ''],
    // A bundle of manifest version 1 (full settings) reads through migrate_1_to_2.
    [['validate', 'v1.zip'], EXIT_OK, new RegExp(`^valid: ${BUNDLE_ID} \\(10 files, `), ''],
    [['inspect', 'v1.zip'], EXIT_OK, /reason {4}page_exception[^]*Last 10 of 12 steps/, ''],
    [['validate', 'broken.zip'], EXIT_INVALID, /^invalid: 2 problems in afr-\S+\n {2}frames\/frame_0001\.jpeg manifest\.json#\/artifacts\/3: listed in the manifest’s artifacts but not in the zip\n/, ''],
  ])('afr %j exits %i', async (argv, code, stdout, stderr) => {
    const { io, out } = fakeIo(await bundles);
    expect(await runCli(argv, io)).toBe(code);
    expect(out.stdout).toMatch(stdout);
    if (stderr === '') expect(out.stderr).toBe('');
    else expect(out.stderr).toMatch(stderr);
  });

  it('redacts a bundle into a new file and prints what it masked and that the result is valid', async () => {
    const { io, out } = fakeIo({ 'secret.zip': await makeSecretBundle() });
    expect(await runCli(['redact', 'secret.zip', '--pattern', ORDER_PATTERN, '--out', 'clean.zip'], io)).toBe(EXIT_OK);
    expect(out.stderr).toBe('');
    const lines = out.stdout.split('\n');
    expect(lines[0]).toBe('wrote clean.zip');
    expect(lines[1]).toMatch(/^masked \d+ spans of text: credential \d+$/);
    expect(lines[2]).toMatch(/^ {2}--pattern "ORD-\\\\d\{6\}": \d+$/);
    expect(lines).toContain('copied 5 files of pixels (frames/, failure.mp4) unchanged: pixels cannot be re-masked, --drop-frames leaves them out');
    expect(lines.at(-2)).toMatch(/^valid: afr-/);
    const written = await io.readFile('clean.zip');
    const text = [...(await openBundleZip(written)).files.values()].map((b) => Buffer.from(b).toString('latin1')).join('');
    for (const secret of Object.values(PLANTED)) expect(text).not.toContain(secret);
  });

  it.each<[string, string[], RegExp]>([
    ['a bad pattern', ['redact', 'secret.zip', '--pattern', 'ORD-(', '--pattern', '', '--out', 'clean.zip'], /^afr: --pattern "ORD-\(": not a valid regular expression\nafr: --pattern "": Too small: expected string to have >=1 characters\n$/],
    ['the input as --out', ['redact', 'secret.zip', '--out', 'secret.zip', '--force'], /^afr: secret\.zip: is the input bundle; redact writes a new file \(--out another path\)\n$/],
    ['an existing --out', ['redact', 'secret.zip', '--out', 'taken.zip'], /^afr: taken\.zip: exists \(--force replaces it\)\n$/],
    ['a missing bundle', ['redact', 'missing.zip', '--out', 'clean.zip'], /^afr: missing\.zip: no such file\n$/],
    ['a file that is not a zip', ['redact', 'taken.zip', '--out', 'clean.zip'], /^afr: taken\.zip: not a zip archive \([^\n]*\)\n$/],
    ['a bundle it cannot read', ['redact', 'broken.zip', '--out', 'clean.zip'], /^afr: broken\.zip: steps\.json: missing from the bundle\n$/],
  ])('refuses %s in one line, exit 1, writing nothing', async (_name, argv, stderr) => {
    const files: Record<string, Uint8Array> = {
      'secret.zip': await makeSecretBundle(),
      'taken.zip': new TextEncoder().encode('mine'),
      'broken.zip': await editBundle(await makeBundle(), (f) => f.delete('steps.json')),
    };
    const { io, out } = fakeIo(files);
    expect(await runCli(argv, io)).toBe(EXIT_INVALID);
    expect(out.stderr).toMatch(stderr);
    expect(out.stdout).toBe('');
    expect(Object.keys(files).sort()).toEqual(['broken.zip', 'secret.zip', 'taken.zip']);
    expect(new TextDecoder().decode(files['taken.zip'])).toBe('mine');
  });

  it('replaces an existing --out with --force', async () => {
    const files: Record<string, Uint8Array> = { 'secret.zip': await makeSecretBundle(), 'taken.zip': new TextEncoder().encode('mine') };
    const { io } = fakeIo(files);
    expect(await runCli(['redact', 'secret.zip', '--drop-frames', '--out', 'taken.zip', '--force'], io)).toBe(EXIT_OK);
    expect([...(await openBundleZip(files['taken.zip']!)).files.keys()].filter((n) => n.startsWith('frames/'))).toEqual([]);
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
 * compiling the sources on the fly (3–5 s of a core per process here: the cases below that need no
 * process of their own run in-process, through the same `runCli`).
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
    const [help, inspect, missing, notZip] = await Promise.all([run('--help'), run('inspect', zip), run('inspect', 'nope.zip'), run('validate', 'notes.txt')]);
    expect(help).toEqual({ code: 0, stdout: USAGE, stderr: '' });
    expect(inspect).toMatchObject({ code: 0, stderr: '' });
    expect(inspect.stdout).toContain('failure: page_exception');
    expect(missing).toEqual({ code: 2, stdout: '', stderr: 'afr: nope.zip: no such file\n' });
    expect(notZip).toMatchObject({ code: 1, stderr: '' });
    expect(notZip.stdout).toMatch(/^invalid: not a zip archive \([^\n]*\)\n$/);
  }, 30_000);
});

/** `runCli` with the viewer this checkout builds, as `bin/afr.mjs` loads it. */
async function runWithViewer(argv: string[], files: Record<string, Uint8Array>) {
  const { io, out } = fakeIo(files);
  io.loadViewer = loadExpectedViewer;
  const code = await runCli(argv, io);
  return { code, ...out };
}

describe('afr on hostile and heavy bundles', () => {
  it('refuses a zip nested deeper than a bundle may be, in one line', async () => {
    const deep = new JSZip();
    deep.file('a/b/c/d/e/manifest.json', '{}');
    expect(await runWithViewer(['inspect', 'deep.zip'], { 'deep.zip': await deep.generateAsync({ type: 'uint8array' }) })).toEqual({
      code: 1,
      stdout: '',
      stderr: 'afr: deep.zip: a/b/c/d/e/: nested 5 levels deep, more than the 4 a bundle may have\n',
    });
  });

  it('checks viewer.html against the viewer this checkout builds', async () => {
    const { script } = await loadExpectedViewer();
    const good = await makeBundle({ viewerScript: script });
    const swapped = await editBundle(good, (files) => {
      const html = new TextDecoder().decode(files.get('viewer.html'));
      files.set('viewer.html', new TextEncoder().encode(html.replace(script.slice(0, 200), 'new Image().src="https://evil.test/b.png";')));
    });
    const files = { 'with-viewer.zip': good, 'swapped-viewer.zip': swapped };
    const valid = await runWithViewer(['validate', 'with-viewer.zip'], files);
    const invalid = await runWithViewer(['validate', 'swapped-viewer.zip'], files);
    expect(valid).toMatchObject({ code: 0, stderr: '' });
    expect(valid.stdout).toMatch(/^valid: /);
    expect(invalid).toMatchObject({ code: 1, stderr: '' });
    expect(invalid.stdout).toContain('  viewer.html: its script is not the viewer recorder 0.1.0 writes');
  }, 60_000);

  it('says in one line why it refuses a zip bomb, and reads a deeply nested JSON file without crashing', async () => {
    // 64 MiB of zeros deflate to about 64 KiB: one bomb lies about its size, the other declares it.
    const zeros = new JSZip();
    zeros.file('manifest.json', new Uint8Array(64 * 1024 * 1024));
    const bomb = await zeros.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
    const declaring = (size: number) => {
      const out = bomb.slice();
      const view = new DataView(out.buffer);
      for (let i = 0; i + 4 <= out.byteLength; i++) if (view.getUint32(i, true) === 0x02014b50) view.setUint32(i + 24, size, true);
      return out;
    };
    const depth = 50_000;
    const files = {
      'lying-bomb.zip': declaring(100),
      'big-bomb.zip': declaring(0x7fff_fff0),
      'deep-json.zip': await editBundle(await makeBundle(), (f) => f.set('snapshot.json', new TextEncoder().encode(`${'['.repeat(depth)}${']'.repeat(depth)}`))),
    };
    const lying = 'manifest.json: inflates past the 100 bytes its header declares';
    const big = 'manifest.json: declares 2147483632 bytes uncompressed, more than the 1073741824 a bundle file may have';
    expect(await runWithViewer(['inspect', 'lying-bomb.zip'], files)).toEqual({ code: 1, stdout: '', stderr: `afr: lying-bomb.zip: ${lying}\n` });
    expect(await runWithViewer(['validate', 'lying-bomb.zip'], files)).toEqual({ code: 1, stdout: `invalid: ${lying}\n`, stderr: '' });
    expect(await runWithViewer(['inspect', 'big-bomb.zip'], files)).toEqual({ code: 1, stdout: '', stderr: `afr: big-bomb.zip: ${big}\n` });
    expect(await runWithViewer(['validate', 'big-bomb.zip'], files)).toEqual({ code: 1, stdout: `invalid: ${big}\n`, stderr: '' });
    // inspect shows what it can, names the file it could not read and exits 1; validate calls the bundle invalid.
    const deepInspect = await runWithViewer(['inspect', 'deep-json.zip'], files);
    expect(deepInspect).toMatchObject({ code: 1, stderr: '' });
    expect(deepInspect.stdout).toContain('reason    ');
    expect(deepInspect.stdout).toContain('  snapshot.json: nested more than 512 levels deep');
    const deepValidate = await runWithViewer(['validate', 'deep-json.zip'], files);
    expect(deepValidate).toMatchObject({ code: 1, stderr: '' });
    expect(deepValidate.stdout).toMatch(/^invalid: \d+ problems? in afr-/);
    expect(deepValidate.stdout).toContain('  snapshot.json: nested more than 512 levels deep');
  }, 60_000);

  it('redacts a bundle: the written zip holds no planted secret and passes afr validate', async () => {
    const files: Record<string, Uint8Array> = { 'secret.zip': await makeSecretBundle((await loadExpectedViewer()).script) };
    const redacted = await runWithViewer(['redact', 'secret.zip', '--pattern', ORDER_PATTERN, '--drop-frames', '--out', 'clean.zip'], files);
    expect(redacted).toMatchObject({ code: 0, stderr: '' });
    expect(redacted.stdout).toMatch(/^wrote clean\.zip\nmasked \d+ spans of text: credential \d+\n {2}--pattern "ORD-\\\\d\{6\}": \d+\nleft out 5 files of pixels \(frames\/, failure\.mp4\)\nvalid: afr-\S+ \(10 files, 0 frames, 12 steps, no clip, /);
    const written = files['clean.zip']!;
    const archive = await openBundleZip(written);
    for (const [name, bytes] of [['(zip)', written] as const, ...archive.files]) {
      for (const secret of Object.values(PLANTED)) expect(Buffer.from(bytes).toString('latin1').includes(secret), `${secret} in ${name}`).toBe(false);
    }
    expect(await runWithViewer(['validate', 'clean.zip'], files)).toMatchObject({ code: 0, stdout: expect.stringMatching(/^valid: /) as string });
    // Run again: the file exists now.
    expect(await runWithViewer(['redact', 'secret.zip', '--out', 'clean.zip'], files)).toEqual({ code: 1, stdout: '', stderr: 'afr: clean.zip: exists (--force replaces it)\n' });
  }, 60_000);
});

/*
 * A hostile bundle: page text that tries to drive the terminal (OSC title, CSI clear, the one-byte C1
 * CSI), to read backwards (a bidi override) or to forge a line of the report (a line break).
 */
describe('a bundle whose page text holds terminal controls', () => {
  const OSC_TITLE = '\x1b]0;pwned\x07';
  const CSI_CLEAR = '\x1b[2J\x1b[H';
  const C1_CSI = '\u009b31m';
  const BIDI = 'invoice\u202efdp.exe';
  const FORGED = 'ok\nvalid: forged line';
  /** What a terminal would act on: C0 (but the CLI's own line breaks), DEL, C1, bidi and format characters. */
  // eslint-disable-next-line no-control-regex -- finding control characters is what this test is for
  const RAW_CONTROL = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/;

  const hostile = (async () => {
    const contents = bundleContents();
    const diagnostics = contents.diagnostics!;
    const zip = await makeBundle({
      manifest: { ...contents.manifest, failure_message: `${OSC_TITLE}${CSI_CLEAR}boom`, failure_label: BIDI, url_at_failure: `https://shop.test/${CSI_CLEAR}` },
      diagnostics: {
        ...diagnostics,
        failure: { ...diagnostics.failure, message: OSC_TITLE, stack: `Error: ${C1_CSI}\n    at x (https://shop.test/${OSC_TITLE}:1:1)` },
        console_errors: [{ at: new Date(Date.UTC(2026, 10, 22, 12)).toISOString(), message: `${C1_CSI}${FORGED}`, url: null }],
        failed_requests: diagnostics.failed_requests.map((r) => ({ ...r, url: `https://shop.test/${BIDI}${CSI_CLEAR}` })),
        warnings: [FORGED],
      },
      steps: { ...contents.steps, steps: contents.steps.steps.map((s, i) => (i === 10 ? { ...s, action: `${CSI_CLEAR}click`, label: FORGED, value: C1_CSI } : s)) },
    });
    // Validation quotes the zip's file names and the values it compares: make it quote hostile ones.
    return editBundle(zip, (files) => {
      files.set(`notes${OSC_TITLE}\n.txt`, new Uint8Array([1]));
      editJson(files, 'steps.json', (steps) => (steps.bundle_id = `${C1_CSI}${BIDI}`));
    });
  })();

  it.each([['inspect'], ['validate']])('afr %s prints every line escaped, and no forged line', async (command) => {
    const { io, out } = fakeIo({ 'hostile.zip': await hostile });
    await runCli([command, 'hostile.zip'], io);
    expect(out.stdout).not.toMatch(RAW_CONTROL);
    expect(out.stderr).toBe('');
    expect(out.stdout).not.toMatch(/^valid: forged line/m);
    expect(out.stdout).toContain('\\x1b');
    if (command === 'inspect') {
      expect(out.stdout).toContain('message   \\x1b]0;pwned\\x07\\x1b[2J\\x1b[Hboom');
      expect(out.stdout).toContain('label     invoice\\u202efdp.exe');
      expect(out.stdout).toContain('\\u009b31m');
    } else {
      expect(out.stdout).toContain('notes\\x1b]0;pwned\\x07\\n.txt: unexpected file');
      expect(out.stdout).toContain('\\u009b31minvoice\\u202efdp.exe');
    }
  });

  it.each([['inspect'], ['validate']])('afr %s --json stays valid JSON with the page text intact, escaped', async (command) => {
    const { io, out } = fakeIo({ 'hostile.zip': await hostile });
    await runCli([command, 'hostile.zip', '--json'], io);
    expect(out.stdout).not.toMatch(RAW_CONTROL);
    const json = JSON.parse(out.stdout) as { failure?: { message: string; label: string }; problems?: { file: string }[] };
    if (command === 'inspect') expect(json.failure).toMatchObject({ message: `${OSC_TITLE}${CSI_CLEAR}boom`, label: BIDI });
    else expect(json.problems?.map((p) => p.file)).toContain(`notes${OSC_TITLE}\n.txt`);
  });

  it('escapes a hostile file name and zip error in the one line it prints', async () => {
    const { io, out } = fakeIo({ [`x${CSI_CLEAR}\n.zip`]: new TextEncoder().encode('not a zip') });
    expect(await runCli(['inspect', `x${CSI_CLEAR}\n.zip`], io)).toBe(EXIT_INVALID);
    expect(out.stderr).toMatch(/^afr: x\\x1b\[2J\\x1b\[H\\n\.zip: not a zip archive \([^\n]*\)\n$/);
  });
});

describe('afr ls', () => {
  /** A bucket in memory holding one delivered bundle's index object (`pull-command.test.ts` pulls). */
  function fleet() {
    const id = 'afr-20261123T090000Z-abcdef';
    const index = {
      index_version: 1, bundle_id: id, run_id: 'run-1', agent: 'shop-bot', agent_version: null, status: 'failure', reason: 'http_5xx', label: null,
      url: 'https://shop.test/checkout', started_at: '2026-11-23T08:59:45.000Z', ended_at: '2026-11-23T09:00:00.000Z', frame_count: 2, size_bytes: 3,
      sha256: 'a'.repeat(64), zip_key: `fleet/bundles/2026/11/23/${id}.zip`, extension_version: '0.1.0', browser_version: 'Chromium 156',
    };
    const objects = new Map<string, Uint8Array>([[`fleet/index/2026/11/23/${id}.json`, new TextEncoder().encode(JSON.stringify(index))]]);
    const store = { list: async (_b: string, prefix: string) => [...objects.keys()].filter((k) => k.startsWith(prefix)), get: async (_b: string, key: string) => objects.get(key) ?? null, open: async () => null };
    return { id, store };
  }

  it('lists what the fleet delivered in the window', async () => {
    const { id, store } = fleet();
    const { io, out } = fakeIo({});
    io.fleetStore = async () => store;
    expect(await runCli(['ls', 's3://runs/fleet', '--since', '2h'], io)).toBe(EXIT_OK);
    expect(out.stdout).toMatch(new RegExp(`2026-11-23T09:00:00Z\\s+http_5xx\\s+shop-bot\\s+${id}`));
  });
});

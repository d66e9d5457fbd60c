import { beforeAll, describe, expect, it } from 'vitest';
import { makeBundle } from '../../test/fixtures/cli/make-bundle';
import type { ReplayDriver } from '../repro/replay';
import { EXIT_INVALID, EXIT_OK, EXIT_USAGE, type CliIo } from './command';
import { runCli } from './main';
import { parseReproArgs } from './repro-command';

describe('parseReproArgs', () => {
  it.each([
    [['b.zip', '--out', 'r.spec.ts'], { file: 'b.zip', out: 'r.spec.ts', lang: 'ts', offline: false, run: false }],
    [['b.zip', '--out', 'r.py', '--lang', 'python', '--offline'], { lang: 'python', offline: true }],
    [['b.zip', '--run', '--offline', '--headed', '--json'], { run: true, offline: true, headed: true, json: true }],
  ])('%j', (args, expected) => {
    expect(parseReproArgs(args)).toMatchObject({ name: 'repro', ...expected });
  });

  it.each([
    [[], /needs a bundle/],
    [['b.zip'], /one of --out <file>.*or --run/],
    [['b.zip', '--out', 'x', '--run'], /one of --out/],
    [['b.zip', '--out', 'x', '--lang', 'ruby'], /--lang takes ts, python, devtools/],
    [['b.zip', '--out', 'x', '--lang', 'devtools', '--offline'], /cannot answer requests/],
    [['b.zip', '--out', 'x', '--headed'], /go with --run/],
    [['b.zip', '--run', '--lang', 'python'], /go with --out/],
    [['a.zip', 'b.zip', '--run'], /one bundle at a time/],
    [['b.zip', '--run', '--nope'], /unknown option --nope/],
    [['b.zip', '--run', '--wait', 'soon'], /--wait takes seconds/],
    [['b.zip', '--out', 'x', '--wait', '3'], /go with --run/],
  ])('%j is a usage error', (args, message) => {
    expect(parseReproArgs(args)).toMatch(message);
  });
});

describe('afr repro on a bundle', () => {
  let zip: Uint8Array;
  beforeAll(async () => {
    zip = await makeBundle();
  });

  /** An in-memory `CliIo` over `files`; `driver`, when given, is the replay's browser. */
  function fakeIo(files: Map<string, Uint8Array>, driver?: ReplayDriver) {
    const out = { stdout: '', stderr: '' };
    const io = {
      readFile: async (file: string) => {
        const bytes = files.get(file);
        if (!bytes) throw Object.assign(new Error(`ENOENT: ${file}`), { code: 'ENOENT' });
        return bytes;
      },
      writeFile: async (file: string, bytes: Uint8Array, overwrite: boolean) => {
        if (files.has(file) && !overwrite) throw Object.assign(new Error('EEXIST'), { code: 'EEXIST' });
        files.set(file, bytes);
      },
      stdout: (text: string) => void (out.stdout += text),
      stderr: (text: string) => void (out.stderr += text),
      env: () => ({ AFR_PASSWORD: 'from-env' }),
      ...(driver ? { launchReproBrowser: async () => ({ driver, recorder: null, unrecorded: () => [], saveNewBundle: async () => null, close: async () => undefined }) } : {}),
    } as unknown as CliIo;
    return { io, out };
  }

  it('--out writes the script, says how many steps were found semantically, and keeps the withheld values out', async () => {
    const files = new Map([['b.zip', zip]]);
    const { io, out } = fakeIo(files);
    expect(await runCli(['repro', 'b.zip', '--out', 'r.spec.ts'], io)).toBe(EXIT_OK);
    expect(out.stdout).toMatch(/^wrote r\.spec\.ts \(ts, 5 steps, 5 found by role, label, text or test id\) in \d+ ms\n$/);
    expect(out.stderr).toContain('afr: missing from the bundle: network.har: no --offline replay');
    const script = new TextDecoder().decode(files.get('r.spec.ts'));
    expect(script).toContain('page.getByRole("button", { name: "Add to cart", exact: true }).click();');
    expect(script).toContain('process.env["AFR_PASSWORD"] ?? "afr-placeholder"');
    expect(script).toContain('// step 6: press Tab: no element recorded to find');
    expect(await runCli(['repro', 'b.zip', '--out', 'r.spec.ts'], io)).toBe(EXIT_USAGE);
    expect(out.stderr).toContain('afr: r.spec.ts: exists (--force replaces it)');
  });

  it('--offline refuses a bundle without network.har in one line', async () => {
    const { io, out } = fakeIo(new Map([['b.zip', zip]]));
    expect(await runCli(['repro', 'b.zip', '--out', 'r.py', '--lang', 'python', '--offline'], io)).toBe(EXIT_INVALID);
    expect(out.stderr).toBe("afr: b.zip: --offline needs the bundle's network.har, and this bundle has none\n");
  });

  it('--run prints the verdict and exits 1 when the failure does not come', async () => {
    const typed: string[] = [];
    const driver: ReplayDriver = {
      goto: async () => undefined,
      act: async (_op, locators, value) => {
        typed.push(value);
        return { used: locators[0]! };
      },
      signals: () => [],
      pause: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    };
    const { io, out } = fakeIo(new Map([['b.zip', zip]]), driver);
    expect(await runCli(['repro', 'b.zip', '--run', '--wait', '0.2'], io)).toBe(EXIT_INVALID);
    expect(out.stdout).toMatch(/^not reproduced: every step ran \(to step 10\) and the failure did not happen/);
    expect(typed).toContain('from-env');
  });
});

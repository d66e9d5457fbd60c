import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { makeBundle } from '../../test/fixtures/cli/make-bundle';
import { DEFAULT_BUNDLE_DIR } from './bundle-folder';
import { EXIT_INVALID, EXIT_OK, EXIT_USAGE, type CliIo } from './command';
import { parseArgs, runCli } from './main';

/** An in-memory `CliIo` for the reads: files by path, and what was printed. */
function fakeIo(files: Record<string, Uint8Array>) {
  const out = { stdout: '', stderr: '' };
  const io = {
    readFile: async (file: string) => {
      const bytes = files[file];
      if (!bytes) throw Object.assign(new Error(`ENOENT: no such file or directory, open '${file}'`), { code: 'ENOENT' });
      return bytes;
    },
    writeFile: async (file: string, bytes: Uint8Array, overwrite: boolean) => {
      if (files[file] && !overwrite) throw Object.assign(new Error('EEXIST'), { code: 'EEXIST' });
      files[file] = bytes;
    },
    stdout: (text: string) => void (out.stdout += text),
    stderr: (text: string) => void (out.stderr += text),
  } as unknown as CliIo;
  return { io, out, files };
}

describe('parseArgs for the reads', () => {
  it.each<[string[], object]>([
    [['summary', 'b.zip'], { name: 'read', verb: 'summary', file: 'b.zip', json: false }],
    [['steps', 'b.zip', '--page', '2', '--page-size=5', '--json'], { name: 'read', verb: 'steps', file: 'b.zip', page: 2, pageSize: 5, json: true }],
    [['step', 'b.zip', '3'], { name: 'read', verb: 'step', file: 'b.zip', index: 3 }],
    [['frame', 'b.zip', '--at', '-1500', '--out', 'f.png'], { verb: 'frame', at: -1500, out: 'f.png' }],
    [['dom', 'b.zip', '--selector', 'form input', '--depth', '2', '--step', '4'], { verb: 'dom', selector: 'form input', depth: 2, step: 4 }],
    [['summary', 'b.zip', '--help'], { name: 'help' }],
    [['step', 'b.zip'], { name: 'usage-error', message: 'step needs an index: afr step <bundle.zip> <N>', brief: true }],
    [['step', 'b.zip', '0'], { name: 'usage-error', message: 'step needs a 1-based index (got "0")' }],
    [['frame', 'b.zip'], { name: 'usage-error', message: 'frame needs one of: an index N, --at <ms>, --step <N>' }],
    [['frame', 'b.zip', '2', '--at', '0'], { name: 'usage-error', message: 'frame needs one of: an index N, --at <ms>, --step <N>' }],
    [['steps', 'b.zip', '--depth', '2'], { name: 'usage-error', message: '--depth does not apply to steps' }],
    [['steps', 'b.zip', '--page', 'two'], { name: 'usage-error', message: '--page needs a whole number from 1 (got "two")' }],
    [['console', 'a.zip', 'b.zip'], { name: 'usage-error', message: 'one bundle at a time (extra: b.zip)' }],
    [['dom', 'b.zip', '--node', '3', '--selector', 'p'], { name: 'usage-error', message: '--selector and --node do not go together: pick one scope' }],
    [['errors'], { name: 'usage-error', message: 'errors needs a bundle: afr errors <bundle.zip>' }],
    [['mcp'], { name: 'mcp', dir: DEFAULT_BUNDLE_DIR }],
    [['mcp', '--dir', 'bundles', '--cdp=http://127.0.0.1:9222'], { name: 'mcp', dir: 'bundles', cdp: 'http://127.0.0.1:9222' }],
    [['mcp', '--cdp', '9222'], { name: 'usage-error', message: '--cdp needs the browser\'s DevTools URL (http://127.0.0.1:9222 or ws://…), got "9222"' }],
    [['mcp', 'b.zip'], { name: 'usage-error', message: 'mcp takes no bundle (extra: b.zip): it serves the folder of --dir' }],
    [['mcp', '--json'], { name: 'usage-error', message: '--json does not apply to mcp' }],
  ])('%j', (argv, command) => {
    expect(parseArgs(argv)).toMatchObject(command);
  });
});

describe('the read verbs', () => {
  const bundle = makeBundle();
  const run = async (argv: string[], extra: Record<string, Uint8Array> = {}) => {
    const fake = fakeIo({ 'b.zip': await bundle, 'notes.txt': new TextEncoder().encode('not a zip'), ...extra });
    const code = await runCli(argv, fake.io);
    return { code, ...fake.out, files: fake.files };
  };

  it.each<[string[], RegExp]>([
    [['summary', 'b.zip'], /^bundle afr-20261122T120000Z-test01 \(failure\), run run-1\n[^]*\nnext:\n {2}all steps: afr steps b\.zip\n/],
    [['steps', 'b.zip', '--page-size', '5'], /^steps 1-5 of 12 \(page 1 of 3\):\n#1 -9\.0s observer navigate "navigate" \[frame 1\]\n[^]*… 7 more steps: afr steps b\.zip --page 2 --page-size 5\n$/],
    [['step', 'b.zip', '12'], /^#12 0\.0s recorder signal "failure: page_exception" → fail[^]*frame: 4 \(-1\.0s, the screen at this step\): afr frame b\.zip 4\n/],
    [['console', 'b.zip'], /^console errors 1-1 of 1 \(page 1 of 1\):\n#1 -0\.1s "Uncaught TypeError: cart is undefined"/],
    [['requests', 'b.zip'], /#1 -1\.5s GET "https:\/\/shop\.test\/api\/cart" → 404 \(fetch, 12 ms\)\n$/],
    [['errors', 'b.zip'], /failure: page_exception \(exception\) 0\.0s from debugger\n/],
    [['dom', 'b.zip'], /\[1\] body\n {2}\[2\] input value withheld \(password\)\n$/],
  ])('afr %j prints a bounded answer, exit 0', async (argv, stdout) => {
    const { code, stdout: printed, stderr } = await run(argv);
    expect([code, stderr]).toEqual([EXIT_OK, '']);
    expect(printed).toMatch(stdout);
  });

  it('names afr in its hints the way the user runs it (npx afr in a checkout)', async () => {
    const fake = fakeIo({ 'b.zip': await bundle });
    fake.io.commandName = () => 'npx afr';
    expect(await runCli(['summary', 'b.zip'], fake.io)).toBe(EXIT_OK);
    expect(fake.out.stdout).toMatch(/\nnext:\n {2}all steps: npx afr steps b\.zip\n/);
    const hints = /\bafr (summary|steps|step|frame|dom|console|requests|errors) /g;
    expect(fake.out.stdout.match(hints)?.length).toBeGreaterThan(1);
    expect(fake.out.stdout.match(/\bnpx afr \w+ /g)).toHaveLength(fake.out.stdout.match(hints)!.length);
    expect(await runCli(['step', 'b.zip'], fake.io)).toBe(EXIT_USAGE);
    expect(fake.out.stderr).toBe('afr: step needs an index: afr step <bundle.zip> <N> (npx afr --help lists the commands)\n');
  });

  it('answers --json with the view itself', async () => {
    const { code, stdout } = await run(['steps', 'b.zip', '--page', '3', '--page-size', '5', '--json']);
    expect(code).toBe(EXIT_OK);
    expect(JSON.parse(stdout)).toMatchObject({ page: 3, pages: 3, total: 12, remaining: 0, items: [{ index: 11 }, { index: 12 }] });
  });

  it('writes frame N as a PNG, and will not replace a file without --force', async () => {
    const first = await run(['frame', 'b.zip', '1', '--out', 'f.png']);
    expect([first.code, first.stderr]).toEqual([EXIT_OK, '']);
    expect(first.stdout).toBe('frame 1 of 4 (frames/frame_0001.jpeg), -4.0s from the failure: 64x36 PNG, ' + first.files['f.png']!.byteLength + ' bytes\nwritten to f.png\n');
    expect(PNG.sync.read(Buffer.from(first.files['f.png']!)).width).toBe(64);
    const again = await run(['frame', 'b.zip', '1', '--out', 'f.png'], { 'f.png': new Uint8Array([1]) });
    expect([again.code, again.stderr]).toEqual([EXIT_USAGE, 'afr: f.png: exists (--force replaces it)\n']);
  });

  it.each<[string[], number, string]>([
    [['summary', 'missing.zip'], EXIT_USAGE, 'afr: missing.zip: no such file\n'],
    [['steps', 'notes.txt'], EXIT_INVALID, "afr: notes.txt: not a zip archive (Can't find end of central directory : is this a zip file ?)\n"],
    [['step', 'b.zip', '13'], EXIT_USAGE, 'afr: b.zip: step 13 is out of range: the bundle has 12 steps (1 to 12)\n'],
    [['frame', 'b.zip', '9'], EXIT_USAGE, 'afr: b.zip: frame 9 is out of range: the bundle has 4 frames (1 to 4)\n'],
    [['steps', 'b.zip', '--page', '9'], EXIT_USAGE, 'afr: b.zip: page 9 is out of range: 12 entries make 1 page of 20\n'],
    [['dom', 'b.zip', '--selector', 'a:hover'], EXIT_USAGE, 'afr: b.zip: unsupported selector "a:hover": cannot read ":hover"\n'],
    [['frame', 'b.zip'], EXIT_USAGE, 'afr: frame needs one of: an index N, --at <ms>, --step <N> (afr --help lists the commands)\n'],
  ])('afr %j: one line on stderr, exit %i', async (argv, code, stderr) => {
    const result = await run(argv);
    expect([result.code, result.stdout, result.stderr]).toEqual([code, '', stderr]);
  });
});

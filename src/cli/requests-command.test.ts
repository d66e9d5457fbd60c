import { describe, expect, it } from 'vitest';
import { bundleContents, makeBundle } from '../../test/fixtures/cli/make-bundle';
import { networkHar } from '../../test/fixtures/cli/network-har';
import { EXIT_OK, EXIT_USAGE, type CliIo } from './command';
import { parseArgs, runCli } from './main';

/** An in-memory `CliIo`: files by path, what was printed; no staging (written directly). */
function fakeIo(files: Record<string, Uint8Array>) {
  const out = { stdout: '', stderr: '' };
  const io = {
    readFile: async (file: string) => {
      const bytes = files[file];
      if (!bytes) throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
      return bytes;
    },
    writeFile: async (file: string, bytes: Uint8Array, overwrite: boolean) => {
      if (files[file] && !overwrite) throw Object.assign(new Error('EEXIST'), { code: 'EEXIST' });
      files[file] = bytes;
    },
    sameFile: async (a: string, b: string) => a === b && files[a] !== undefined,
    stdout: (text: string) => void (out.stdout += text),
    stderr: (text: string) => void (out.stderr += text),
  } as unknown as CliIo;
  return { io, out, files };
}

const withHar = makeBundle({ har: networkHar() });
const withoutHar = makeBundle();
const twoFailed = (async () => {
  const contents = bundleContents({ har: networkHar() });
  const first = contents.diagnostics!.failed_requests[0]!;
  return makeBundle({ ...contents, diagnostics: { ...contents.diagnostics!, failed_requests: [first, { ...first, url: 'https://shop.test/api/pay', status: 500 }] } });
})();

async function run(argv: string[], files: Record<string, Uint8Array> = {}) {
  const fake = fakeIo({ 'b.zip': await withHar, 'old.zip': await withoutHar, ...files });
  const code = await runCli(argv, fake.io);
  return { code, ...fake.out, files: fake.files };
}

describe('parseArgs for the network reads', () => {
  it.each<[string[], object]>([
    [['requests', 'b.zip', '--failed'], { verb: 'requests', failed: true }],
    [['request', 'b.zip', '3', '--json'], { verb: 'request', index: 3, json: true }],
    [['har', 'b.zip', '--out', 'f.har', '--force'], { verb: 'har', out: 'f.har', force: true }],
    [['request', 'b.zip'], { name: 'usage-error', message: 'request needs an index: afr request <bundle.zip> <N>' }],
    [['request', 'b.zip', '--failed'], { name: 'usage-error', message: 'unknown option --failed' }],
    [['har', 'b.zip', '2'], { name: 'usage-error', message: 'one bundle at a time (extra: 2)' }],
    [['requests', 'b.zip', '--out', 'x'], { name: 'usage-error', message: '--out does not apply to requests' }],
  ])('%j', (argv, command) => {
    expect(parseArgs(argv)).toMatchObject(command);
  });
});

describe('afr requests, request, har', () => {
  it('lists every request of network.har, paged, and --failed keeps the failed requests of diagnostics.json', async () => {
    const all = await run(['requests', 'b.zip', '--page-size', '3']);
    expect(all.code).toBe(EXIT_OK);
    expect(all.stdout.split('\n').slice(0, 5)).toEqual([
      'requests 1-3 of 25 in network.har (page 1 of 9), time from the failure, status, type, size, duration:',
      '#1 -8.5s POST 200 Fetch 66 B 34 ms "https://shop.test/api/login" (step #1)',
      '#2 -6.9s GET 200 Fetch 36 B 34 ms "https://shop.test/api/cart?q=shoes" (step #3)',
      '#3 -2.9s POST 500 Fetch 40 B 34 ms "https://shop.test/api/pay" (step #7)',
      '… 22 more requests: afr requests b.zip --page 2 --page-size 3',
    ]);
    expect(all.stdout).toContain('one request with its headers and bodies: afr request b.zip 1; the failed ones only: afr requests b.zip --failed');
    const failed = await run(['requests', 'b.zip', '--failed']);
    expect(failed.stdout).toBe('failed requests 1-1 of 1 (page 1 of 1):\n#1 -1.5s GET "https://shop.test/api/cart" → 404 (fetch, 12 ms)\n');
    // A page of the failed list asks for the next page of that list.
    const manyFailed = await run(['requests', 'b.zip', '--failed', '--page-size', '1'], { 'b.zip': await twoFailed });
    expect(manyFailed.stdout.split('\n').at(-2)).toBe('… 1 more failed requests: afr requests b.zip --page 2 --page-size 1 --failed');
    expect((await run(['errors', 'b.zip'])).stdout).toContain('1 failed request: afr requests b.zip --failed\n');
    const json = JSON.parse((await run(['requests', 'b.zip', '--json'])).stdout) as { source: string; total: number; items: unknown[] };
    expect(json).toMatchObject({ source: 'network.har', total: 25 });
    expect(json.items).toHaveLength(20);
  });

  it('falls back to the failed requests, with one line saying why, for a bundle without network.har', async () => {
    const old = await run(['requests', 'old.zip']);
    expect(old.code).toBe(EXIT_OK);
    expect(old.stdout.split('\n').slice(0, 2)).toEqual([
      'note: network.har is missing from this bundle (written before the network log, or of no tab): these are the failed requests diagnostics.json kept',
      'failed requests 1-1 of 1 (page 1 of 1):',
    ]);
    expect(JSON.parse((await run(['requests', 'old.zip', '--json'])).stdout)).toMatchObject({ source: 'diagnostics.json', note: expect.stringContaining('missing'), total: 1 });
    const one = await run(['request', 'old.zip', '1']);
    expect([one.code, one.stderr]).toEqual([EXIT_USAGE, 'afr: old.zip: the bundle has no network.har (written before the network log, or of no tab)\n']);
  });

  it('shows one request with its masks, and refuses an index out of range', async () => {
    const login = await run(['request', 'b.zip', '1']);
    expect(login.stdout).toContain('  "Authorization": "Bearer [redacted 32+]"\n');
    expect(login.stdout).toContain('request body (application/json, json):\n  | {\n  |   "user": "[email]",\n  |   "password": "[redacted 8+]"\n  | }\n');
    expect(JSON.parse((await run(['request', 'b.zip', '2', '--json'])).stdout)).toMatchObject({ index: 2, response: { body: { kind: 'json', text: '{\n  "error": "token_expired",\n  "items": []\n}' } } });
    const out = await run(['request', 'b.zip', '26']);
    expect([out.code, out.stderr]).toEqual([EXIT_USAGE, 'afr: b.zip: request 26 is out of range: network.har holds 25 requests\n']);
  });

  it('extracts network.har byte for byte, never over a file unless --force, never over the bundle', async () => {
    const first = await run(['har', 'b.zip', '--out', 'f.har']);
    expect(first.stdout).toBe('network.har: 25 requests, ' + first.files['f.har']!.byteLength + ' bytes, written to f.har\n');
    expect(JSON.parse(new TextDecoder().decode(first.files['f.har']))).toEqual(networkHar());
    const exists = await run(['har', 'b.zip', '--out', 'f.har'], { 'f.har': new Uint8Array([1]) });
    expect([exists.code, exists.stderr, exists.files['f.har']]).toEqual([EXIT_USAGE, 'afr: f.har: exists (--force replaces it)\n', new Uint8Array([1])]);
    expect((await run(['har', 'b.zip', '--out', 'f.har', '--force'], { 'f.har': new Uint8Array([1]) })).files['f.har']!.byteLength).toBeGreaterThan(1000);
    const self = await run(['har', 'b.zip', '--out', 'b.zip', '--force']);
    expect([self.code, self.stderr]).toEqual([EXIT_USAGE, 'afr: b.zip: that is the bundle itself; not replaced\n']);
    const named = await run(['har', 'b.zip', '--json']);
    expect(JSON.parse(named.stdout)).toMatchObject({ file: 'afr-20261122T120000Z-test01.har', requests: 25 });
    expect((await run(['har', 'old.zip'])).code).toBe(EXIT_USAGE);
  });
});

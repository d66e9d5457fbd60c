import { beforeAll, describe, expect, it } from 'vitest';
import { failingSteps, makeRunBundle, passingSteps, shopRun } from '../../test/fixtures/cli/diff-bundles';
import { EXIT_INVALID, EXIT_OK, EXIT_USAGE, type CliIo } from './command';
import { runCli } from './main';

const files = new Map<string, Uint8Array>();

function io() {
  const out = { stdout: '', stderr: '' };
  const fake = {
    readFile: async (file: string) => {
      const bytes = files.get(file);
      if (!bytes) throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
      return bytes;
    },
    stdout: (text: string) => void (out.stdout += text),
    stderr: (text: string) => void (out.stderr += text),
  } as unknown as CliIo;
  return { fake, out };
}

beforeAll(async () => {
  files.set('pass.zip', await makeRunBundle(shopRun(passingSteps())));
  files.set('pass2.zip', await makeRunBundle(shopRun(passingSteps())));
  files.set('fail.zip', await makeRunBundle(shopRun(failingSteps())));
  files.set('junk.zip', new TextEncoder().encode('not a zip'));
}, 30_000);

describe('afr diff', () => {
  it('names the checkout, its 200 → 500 and the page that changed otherwise; exit 1', async () => {
    const { fake, out } = io();
    expect(await runCli(['diff', 'pass.zip', 'fail.zip'], fake)).toBe(EXIT_INVALID);
    expect(out.stderr).toBe('');
    expect(out.stdout.split('\n')).toEqual([
      'a: "pass.zip"',
      'b: "fail.zip"',
      'the runs differ: 6 steps line up, 0 only in a, 0 only in b; 1 step differs',
      '',
      'first divergence, a #6 / b #6: click button "Checkout" "#checkout"',
      '  page: a "the text \\"Order 4411 placed\\" appeared"; b "an alert appeared: \\"Something went wrong\\""',
      '  POST "shop.test/api/checkout": 200 → 500',
      '  only in b: signal "failure: http_5xx POST https://shop.test/api/checkout 500"',
      '',
      'values given differently up to there:',
      '  a #4 / b #4: input "type" textbox "Quantity" "#qty": a "3", b "7"',
      '',
    ]);
  });

  it('exits 0 between two passing runs', async () => {
    const { fake, out } = io();
    expect(await runCli(['diff', 'pass.zip', 'pass2.zip'], fake)).toBe(EXIT_OK);
    expect(out.stdout).toContain('the runs match: 6 steps line up, 0 only in a, 0 only in b\n');
  });

  it('answers --json with the steps that differ', async () => {
    const { fake, out } = io();
    expect(await runCli(['diff', 'pass.zip', 'fail.zip', '--json'], fake)).toBe(EXIT_INVALID);
    const json = JSON.parse(out.stdout) as { a: string; same: boolean; steps: { a: number; differences: { what: string }[] }[] };
    expect(json).toMatchObject({ a: 'pass.zip', b: 'fail.zip', same: false, aligned: 6 });
    expect(json.steps[0]!.differences.map((d) => d.what)).toEqual(['page', 'status', 'signal']);
  });

  it.each([
    [['diff', 'pass.zip'], 'afr: diff needs two bundles: afr diff <a.zip> <b.zip> (afr --help lists the commands)\n'],
    [['diff', 'pass.zip', 'nope.zip'], 'afr: nope.zip: no such file\n'],
    [['diff', 'junk.zip', 'pass.zip'], expect.stringMatching(/^afr: junk\.zip: .*zip/)],
  ])('afr %j: exit 2', async (argv, stderr) => {
    const { fake, out } = io();
    expect(await runCli(argv, fake)).toBe(EXIT_USAGE);
    expect(out.stderr).toEqual(stderr);
  });
});

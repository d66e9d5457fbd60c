import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { PNG } from 'pngjs';
import { test, expect } from './support/fixtures';
import { launchWithRecorder, ROOT_DIR, type RecorderBrowser } from './support/launch';
import { findSecrets, openBundle } from './support/bundle';
import { secretVariants } from './support/secrets';
import { runExample } from '../examples/playwright-example';

/*
 * The packaged command line (`afr.js`, built here by `scripts/build-cli.ts` as `npm pack` builds it) reading a
 * bundle the real recorder wrote, and `afr mcp` serving it to the MCP SDK's own client: from a folder,
 * and from the running browser's recorder over `--cdp`. One browser for the file.
 */

/** The packaged command line, built by the file's `beforeAll` into its own folder: `npm pack` (client-package.spec.ts) may rebuild dist/ meanwhile. */
let CLI = '';
const run = promisify(execFile);
const afrCli = (...args: string[]) => run(process.execPath, [CLI, ...args], { encoding: 'utf8' }).then(
  ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
  (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
);

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });

const textOf = (result: CallToolResult) => result.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n');

test.describe.serial('reading a real bundle with the packaged afr', () => {
  const work = mkdtempSync(path.join(os.tmpdir(), 'afr-reads-e2e-'));
  const dir = path.join(work, 'bundles');
  // Inside the checkout, as dist/cli/ is: `afr mcp --cdp` finds playwright-core in its node_modules.
  const cliDir = path.join(ROOT_DIR, '.cache', `e2e-cli-${path.basename(work)}`);
  CLI = path.join(cliDir, 'afr.js');
  let browser: RecorderBrowser;
  let port = 0;
  let bundleId = '';
  let zipPath = '';

  test.beforeAll(async ({ site }) => {
    test.setTimeout(180_000);
    execFileSync(process.execPath, [path.join(ROOT_DIR, 'node_modules/tsx/dist/cli.mjs'), path.join(ROOT_DIR, 'scripts/build-cli.ts'), cliDir], { cwd: ROOT_DIR, stdio: 'ignore' });
    port = await freePort();
    browser = await launchWithRecorder({ debuggingPort: port });
    mkdirSync(dir);
    const result = await runExample(browser.context, { shopUrl: site.origin, outDir: dir });
    bundleId = result.bundleId!;
    zipPath = result.zipPath!;
    const bundle = await openBundle(readFileSync(zipPath));
    expect(findSecrets(bundle, secretVariants())).toEqual([]);
  });

  test.afterAll(async () => {
    await browser?.close();
    rmSync(work, { recursive: true, force: true });
    rmSync(cliDir, { recursive: true, force: true });
  });

  test('summary, steps, step, frame, dom and errors answer in bounded text, and bad input in one line', async () => {
    const summary = await afrCli('summary', zipPath);
    expect(summary).toMatchObject({ code: 0, stderr: '' });
    expect(summary.stdout).toContain(`bundle ${bundleId} (failure)`);
    expect(summary.stdout).toContain('failure: assertion_failed');
    expect(summary.stdout).toContain('  label: "checkout shows the order summary"');
    expect(summary.stdout).toMatch(/\nnext:\n/);

    const steps = await afrCli('steps', zipPath, '--page-size', '3');
    expect(steps.code).toBe(0);
    const lines = steps.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^steps 1-3 of \d+ \(page 1 of \d+\):$/);
    // The built afr.js is on no PATH folder here: the hint names the command that runs it, npx afr.
    expect(lines.at(-1)).toMatch(new RegExp(`^… \\d+ more steps: npx afr steps ${zipPath.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} --page 2 --page-size 3$`));

    const all = JSON.parse((await afrCli('steps', zipPath, '--page-size', '200', '--json')).stdout) as { items: { index: number; kind: string; outcome: string | null; frame: number | null }[] };
    const failed = all.items.find((s) => s.kind === 'assert' && s.outcome === 'fail')!;
    const step = await afrCli('step', zipPath, String(failed.index));
    expect(step.stdout).toMatch(new RegExp(`^#${failed.index} [-+]?\\d+\\.\\ds agent assert "assert checkout shows the order summary"`));
    expect(step.stdout).toContain('expected: "#order-summary on the page"');

    const out = path.join(work, 'failure.png');
    const frame = await afrCli('frame', zipPath, '--step', String(failed.index), '--out', out);
    expect(frame).toMatchObject({ code: 0, stderr: '' });
    const png = PNG.sync.read(readFileSync(out));
    // Captured 1280 px wide (the viewport): scaled to the default 1024 px, the height in proportion.
    const [, width, height] = /\(captured (\d+)x(\d+)\)/.exec(frame.stdout)!.map(Number);
    expect(width).toBe(1280);
    expect([png.width, png.height]).toEqual([1024, Math.round((height! * 1024) / 1280)]);

    const dom = await afrCli('dom', zipPath, '--depth', '3');
    expect(dom.code).toBe(0);
    expect(dom.stdout).toMatch(/^page "[^"]*" "http:\/\/127\.0\.0\.1:\d+\/[^"]*": \d+ nodes/);
    expect(dom.stdout).toContain('\n[1] html\n  [2] body\n');
    const scoped = await afrCli('dom', zipPath, '--selector', 'header');
    expect(scoped.stdout).toMatch(/\nscope: "header" \(1 match\)\n\[\d+\] header role=banner\n {2}\[\d+\] strong text="Demo Shop"\n/);

    expect((await afrCli('errors', zipPath)).stdout).toContain('failure: assertion_failed');
    for (const output of [summary, steps, step, dom, scoped]) for (const secret of secretVariants()) expect(output.stdout).not.toContain(secret);

    const notZip = path.join(work, 'notes.zip');
    writeFileSync(notZip, 'not a zip');
    expect(await afrCli('summary', notZip)).toMatchObject({ code: 1, stdout: '', stderr: expect.stringMatching(/^afr: \S+notes\.zip: not a zip archive \([^\n]*\)\n$/) });
    expect(await afrCli('frame', zipPath, '999')).toMatchObject({ code: 2, stdout: '', stderr: expect.stringMatching(/^afr: \S+: frame 999 is out of range: the bundle has \d+ frames? \(1 to \d+\)\n$/) });
  });

  test('afr mcp serves the folder and, over --cdp, the running browser’s recorder', async () => {
    const empty = path.join(work, 'empty');
    mkdirSync(empty);
    const client = new Client({ name: 'afr-e2e', version: '0.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--dir', empty, '--cdp', `http://127.0.0.1:${port}`], stderr: 'pipe' }));
    try {
      const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;
      const list = textOf(await call('list_bundles', {}));
      expect(list).toContain(`"${bundleId}" `);
      expect(list).toContain('(browser) "assertion_failed" "checkout shows the order summary"');
      // The folder is empty: this bundle comes from the browser's recorder.
      const summary = textOf(await call('get_summary', { bundle: bundleId }));
      expect(summary).toContain(`bundle ${bundleId} (failure)`);
      const frame = await call('get_frame', { bundle: bundleId, atMs: 0 });
      const image = frame.content.find((c) => c.type === 'image') as { data: string; mimeType: string };
      expect(image.mimeType).toBe('image/png');
      expect(PNG.sync.read(Buffer.from(image.data, 'base64')).width).toBe(1024);
      const dom = textOf(await call('get_dom', { bundle: bundleId, depth: 2 }));
      expect(dom).toContain('\n[1] html\n  [2] body\n');
      const outside = await call('get_summary', { bundle: zipPath });
      expect(outside.isError).toBe(true);
    } finally {
      await client.close();
    }
  });
});

import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect } from './support/fixtures';
import { chromiumPath, EXTENSION_DIR, ROOT_DIR } from './support/launch';
import { findSecrets, openBundle } from './support/bundle';
import { secretVariants } from './support/secrets';

/** What a consumer's script does with the installed client: connect, read status, fail, save the bundle. */
const CONSUMER_SCRIPT = `
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { connectRecorder, RecorderTimeoutError } from 'agent-flight-recorder/client';

const [extensionDir, executablePath, shopUrl, outDir] = process.argv.slice(2);
const context = await chromium.launchPersistentContext(mkdtempSync(path.join(os.tmpdir(), 'afr-consumer-')), {
  executablePath,
  headless: true,
  args: ['--no-sandbox', '--disable-extensions-except=' + extensionDir, '--load-extension=' + extensionDir, '--silent-debugger-extension-api'],
});
try {
  const rec = await connectRecorder(context);
  const status = await rec.status();
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(shopUrl + '/index.html');
  const since = Date.now();
  const bundleId = await rec.fail({ reason: 'agent_failure', label: 'from the packed client' });
  const waited = await rec.waitForBundle({ since, timeoutMs: 10_000 });
  const timeout = await rec.waitForBundle({ since: bundleId, timeoutMs: 0 }).catch((e) => e);
  const zipPath = await rec.saveBundle(bundleId, outDir);
  console.log(JSON.stringify({ status, bundleId, waited: waited.id, timedOut: timeout instanceof RecorderTimeoutError, zipPath }));
} finally {
  await context.close();
}
`;

const run = (command: string, args: string[], cwd: string) => execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

test('npm pack ships a client and a command line that install offline into a fresh project and work there without the sources', async ({ site }) => {
  // Packing builds dist/ (prepack), then a real install and a real Chromium.
  test.setTimeout(240_000);
  const work = mkdtempSync(path.join(os.tmpdir(), 'afr-pack-'));
  try {
    // The build scripts print on stdout too: the JSON report is the last thing there.
    const packOutput = run('npm', ['pack', '--json', '--pack-destination', work], ROOT_DIR);
    const packed = JSON.parse(packOutput.slice(packOutput.search(/^\[\s*\{/m))) as { filename: string; files: { path: string }[] }[];
    const files = packed[0]!.files.map((f) => f.path);
    expect(files).toEqual(expect.arrayContaining(['dist/client/index.js', 'dist/client/index.d.ts', 'dist/cli/afr.js', 'bin/afr.mjs', 'package.json']));
    expect(files.filter((f) => f.startsWith('src/') || f.startsWith('e2e/') || f.startsWith('.output/'))).toEqual([]);

    const project = path.join(work, 'consumer');
    mkdirSync(project);
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    // playwright-core is the consumer's own choice (the client depends on neither driver): the
    // version this checkout uses, from npm's cache.
    const playwrightVersion = (JSON.parse(readFileSync(path.join(ROOT_DIR, 'node_modules/playwright-core/package.json'), 'utf8')) as { version: string }).version;
    run('npm', ['install', '--offline', '--no-audit', '--no-fund', path.join(work, packed[0]!.filename), `playwright-core@${playwrightVersion}`], project);
    // Nothing of the recorder's build tools came along: the CLI runs with Node alone.
    expect(readdirSync(path.join(project, 'node_modules')).sort()).toEqual(['.bin', '.package-lock.json', 'agent-flight-recorder', 'playwright-core']);
    expect(existsSync(path.join(project, 'node_modules/agent-flight-recorder/src'))).toBe(false);

    writeFileSync(path.join(project, 'check.mjs'), CONSUMER_SCRIPT);
    const outDir = path.join(work, 'kept bundles');
    // Not execFileSync: the demo shop is served from this process, which must stay free to answer.
    const { stdout } = await promisify(execFile)('node', ['check.mjs', EXTENSION_DIR, chromiumPath(), site.origin, outDir], { cwd: project, encoding: 'utf8' });
    const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as {
      status: { recording: boolean; version: string; downloads: { managedByDriver: boolean } };
      bundleId: string;
      waited: string;
      timedOut: boolean;
      zipPath: string;
    };
    expect(result.status).toMatchObject({ recording: true, version: '0.1.0' });
    expect(result.waited).toBe(result.bundleId);
    expect(result.timedOut).toBe(true);
    expect(result.zipPath).toBe(path.join(outDir, `${result.bundleId}.zip`));
    const bundle = await openBundle(readFileSync(result.zipPath));
    expect(bundle.manifest).toMatchObject({ bundle_id: result.bundleId, failure_label: 'from the packed client' });
    expect(findSecrets(bundle, secretVariants())).toEqual([]);

    // The bin named after the package, and its `afr` alias, from the consumer's project.
    expect(run('npx', ['--no', '--', 'agent-flight-recorder', '--help'], project)).toMatch(/^afr: inspect and validate Agent Flight Recorder bundles/);
    const validated = spawnSync('npx', ['--no', '--', 'agent-flight-recorder', 'validate', result.zipPath], { cwd: project, encoding: 'utf8' });
    // npm's own warnings (about the machine's npm config) may come first.
    expect(validated.stderr.split('\n').filter((line) => line && !line.startsWith('npm warn'))).toEqual([]);
    expect(validated.status).toBe(0);
    expect(validated.stdout).toMatch(/valid/);
    const inspected = run('npx', ['--no', '--', 'afr', 'inspect', result.zipPath], project);
    expect(inspected).toContain('from the packed client');
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

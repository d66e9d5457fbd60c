import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect } from './support/fixtures';
import { chromiumPath, EXTENSION_DIR, ROOT_DIR } from './support/launch';
import { devToolsUrl } from './support/devtools-port';
import { findSecrets, openBundle } from './support/bundle';
import { docBlock, shellWords } from '../test/support/doc-block';
import { secretVariants } from './support/secrets';
import { CLIP_FILE } from '../src/bundle-format/file-names';
import { runMcpExample } from '../examples/playwright-mcp-example';
import { recorderStatusOverCdp } from '../examples/raw-cdp-example';
import { bundleFromRunningBrowser, statusFromRunningBrowser } from '../examples/running-browser-example';

// The driver recipes of docs/drivers/, run as the docs write them: the Playwright MCP config file and
// the shell command are read from their pages, the code is the code of examples/.
// Two browser launches in all: the one Playwright MCP makes, and one started by hand.

const DOCS_EXTENSION_DIR = '/path/to/.output/chrome-mv3';

/** A bundle zip a recipe wrote: schema-valid, with frames and a clip, and none of the planted secrets. */
async function expectFramesAndClip(zipPath: string) {
  const bundle = await openBundle(readFileSync(zipPath));
  expect(bundle.manifest.failure_reason).toBe('page_exception');
  expect(bundle.manifest.url_at_failure).toContain('/late-error.html');
  expect(bundle.manifest.frames.length).toBeGreaterThan(0);
  for (const frame of bundle.manifest.frames) expect(bundle.files.get(frame.name)?.byteLength, frame.name).toBeGreaterThan(0);
  expect(bundle.files.get(CLIP_FILE)?.byteLength, CLIP_FILE).toBeGreaterThan(0);
  expect(findSecrets(bundle, secretVariants())).toEqual([]);
  return bundle;
}

test('Playwright MCP with the config of its docs page: an uncaught exception gives a bundle with frames and a clip, through MCP tools only', async ({ site, tempDir }) => {
  test.setTimeout(120_000);
  const dir = tempDir();
  const configFile = path.join(dir, 'playwright-mcp.config.json');
  const config = docBlock('docs/drivers/playwright-mcp.md', 'json', '"userDataDir"')
    .replaceAll(DOCS_EXTENSION_DIR, EXTENSION_DIR)
    .replaceAll('/tmp/afr-mcp-profile', path.join(dir, 'profile'))
    .replaceAll('/usr/bin/chromium', chromiumPath());
  writeFileSync(configFile, config);

  const { bundleId, reason, zipPath } = await runMcpExample({
    configFile,
    mcpCli: path.join(ROOT_DIR, 'node_modules/@playwright/mcp/cli.js'),
    appUrl: site.origin,
    outDir: path.join(dir, 'bundles'),
    cwd: dir,
  });

  expect(reason).toBe('page_exception');
  expect(zipPath).toBe(path.join(dir, 'bundles', `${bundleId}.zip`));
  const bundle = await expectFramesAndClip(zipPath);
  expect(bundle.manifest.bundle_id).toBe(bundleId);
});

test.describe.serial('a Chromium already running with --remote-debugging-port', () => {
  let chromium: ChildProcess | undefined;
  let browserURL = '';
  /** The browser's profile and HOME, for the whole group. */
  let dir = '';

  test.beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'afr-recipes-e2e-'));
    const profile = path.join(dir, 'profile');
    // The docs' command line, with a free port, this machine's paths, and --no-sandbox as root (as it says).
    const [, ...args] = shellWords(docBlock('docs/drivers/running-browser.md', 'sh', '--remote-debugging-port='))
      .map((word) => word.replaceAll(DOCS_EXTENSION_DIR, EXTENSION_DIR).replace('/tmp/afr-agent-profile', profile))
      .map((word) => (word.startsWith('--remote-debugging-port=') ? '--remote-debugging-port=0' : word));
    if (process.getuid?.() === 0) args.unshift('--no-sandbox');
    // Its own HOME: the recorder's auto-downloaded bundles go to <HOME>/Downloads.
    mkdirSync(path.join(dir, 'home'));
    chromium = spawn(chromiumPath(), args, { stdio: 'ignore', env: { ...process.env, HOME: path.join(dir, 'home') } });
    browserURL = await devToolsUrl(profile, chromium);
  });

  test.afterAll(async () => {
    if (chromium && chromium.exitCode === null) {
      const exited = new Promise((resolve) => chromium!.once('exit', resolve));
      chromium.kill();
      await exited;
    }
    // Its renderers may still be writing to the profile as the browser exits: rm tries again.
    if (dir) rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  });

  test('Playwright connectOverCDP and the client: a page that throws gives a bundle with frames and a clip', async ({ site, tempDir }) => {
    const outDir = path.join(tempDir(), 'bundles');
    const zipPath = await bundleFromRunningBrowser(browserURL, { appUrl: site.origin, outDir });
    expect(zipPath).not.toBeNull();
    await expectFramesAndClip(zipPath!);
    expect(chromium?.exitCode, 'the browser keeps running after Playwright disconnects').toBeNull();
  });

  test('Puppeteer connect and the client: the status of the same recorder', async () => {
    const status = await statusFromRunningBrowser(browserURL);
    expect(status.recording).toBe(true);
    expect(status.bundles).toBeGreaterThanOrEqual(1);
  });

  test("raw CDP over a bare WebSocket finds the worker by its URL, not the extension's offscreen document", async () => {
    // The clip of the bundle above was encoded in the offscreen document: it is a chrome-extension:// target now.
    const listed = (await (await fetch(`${browserURL}/json/list`)).json()) as { type: string; url: string }[];
    const extensionTargets = listed.filter((t) => t.url.startsWith('chrome-extension://'));
    expect(extensionTargets).toEqual(expect.arrayContaining([expect.objectContaining({ url: expect.stringMatching(/\/offscreen\.html$/) })]));

    const { target, status } = await recorderStatusOverCdp(browserURL);

    expect(target).toMatchObject({ type: 'service_worker', url: expect.stringMatching(/^chrome-extension:\/\/[a-p]{32}\/background\.js$/) });
    expect(status.recording).toBe(true);
    expect(status.bundles).toBeGreaterThanOrEqual(1);
  });
});

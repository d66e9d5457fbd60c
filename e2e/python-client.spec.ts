import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import puppeteer from 'puppeteer-core';
import WebSocket from 'ws';
import { test, expect } from './support/fixtures';
import { chromiumPath, EXTENSION_DIR, ROOT_DIR, SILENT_DEBUGGER_SWITCH } from './support/launch';
import { devToolsUrl } from './support/devtools-port';
import { findSecrets, openBundle } from './support/bundle';
import { S3_CREDENTIALS, startS3Store } from './support/s3-store';
import { secretVariants } from './support/secrets';
import { connectRecorderPuppeteer, loadRecorder, RECORDER_EXTENSION_ID } from '../src/client';

// The Python client (clients/python) under Debian's python3, against Chromium started by hand with
// --remote-debugging-port, as a Python framework would; and loading the recorder into a browser started
// without --load-extension, from Python and from the Node client. One browser per test.

const PYTHON = process.env.PYTHON ?? '/usr/bin/python3';
const PACKAGE_DIR = path.join(ROOT_DIR, 'clients/python');
const browsers: ChildProcess[] = [];
test.afterEach(async () => {
  for (const browser of browsers.splice(0)) {
    if (browser.exitCode !== null) continue;
    const exited = new Promise((resolve) => browser.once('exit', resolve));
    browser.kill();
    await exited;
  }
});

/** Chromium started by hand with a free DevTools port (its own profile and HOME in `dir`); resolves to its http:// URL. */
async function startChromium(dir: string, args: string[]): Promise<string> {
  const profile = path.join(dir, 'profile');
  const browser = spawn(
    chromiumPath(),
    ['--headless', '--no-sandbox', `--user-data-dir=${profile}`, '--remote-debugging-port=0', '--no-first-run', '--disable-gpu', '--disable-sync', SILENT_DEBUGGER_SWITCH, ...args],
    { stdio: 'ignore', env: { ...process.env, HOME: dir } },
  );
  browsers.push(browser);
  return devToolsUrl(profile, browser);
}

/** Runs one of clients/python/examples/ under python3 and parses the JSON it prints. */
function runPython(script: string, args: string[]): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, [path.join(PACKAGE_DIR, 'examples', script), ...args], {
      env: { ...process.env, PYTHONPATH: PACKAGE_DIR, PYTHONDONTWRITEBYTECODE: '1' },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as Record<string, unknown>) : reject(new Error(`${script} exited ${code}:\n${err}`))));
  });
}

/** One browser-level CDP command over a bare WebSocket (what the test does behind the client's back). */
async function withBrowserCdp<T>(browserURL: string, use: (send: (method: string, params?: object, sessionId?: string) => Promise<Record<string, unknown>>) => Promise<T>): Promise<T> {
  const { webSocketDebuggerUrl } = (await (await fetch(`${browserURL}/json/version`)).json()) as { webSocketDebuggerUrl: string };
  const ws = new WebSocket(webSocketDebuggerUrl);
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  let lastId = 0;
  const waiting = new Map<number, (reply: { result?: Record<string, unknown>; error?: { message: string } }) => void>();
  ws.on('message', (data) => {
    const reply = JSON.parse(String(data)) as { id?: number; result?: Record<string, unknown>; error?: { message: string } };
    if (reply.id !== undefined) waiting.get(reply.id)?.(reply);
  });
  const send = (method: string, params: object = {}, sessionId?: string) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const id = ++lastId;
      waiting.set(id, (reply) => (reply.error ? reject(new Error(`${method}: ${reply.error.message}`)) : resolve(reply.result ?? {})));
      ws.send(JSON.stringify({ id, method, params, sessionId }));
    });
  try {
    return await use(send);
  } finally {
    ws.close();
  }
}

const listedWorkers = async (browserURL: string) =>
  ((await (await fetch(`${browserURL}/json/list`)).json()) as { type: string; url: string }[]).filter((t) => t.type === 'service_worker').map((t) => t.url);

test('Python client: wakes the stopped worker, records a run that fails, waits for and saves a schema-valid bundle; SyncRecorder waits for a delivery', async ({ site, tempDir }) => {
  test.setTimeout(120_000);
  const browserURL = await startChromium(tempDir(), [`--disable-extensions-except=${EXTENSION_DIR}`, `--load-extension=${EXTENSION_DIR}`, 'about:blank']);
  const workerUrl = `chrome-extension://${RECORDER_EXTENSION_ID}/background.js`;
  await expect.poll(() => listedWorkers(browserURL)).toContain(workerUrl);
  // The agent drives the tab (a raw CDP Page.navigate, as a Python framework does) once the recorder is up.
  await withBrowserCdp(browserURL, async (send) => {
    const { targetInfos } = (await send('Target.getTargets')) as { targetInfos: { targetId: string; type: string }[] };
    const { sessionId } = (await send('Target.attachToTarget', { targetId: targetInfos.find((t) => t.type === 'page')!.targetId, flatten: true })) as { sessionId: string };
    await send('Page.navigate', { url: `${site.origin}/secrets.html` }, sessionId);
  });
  await expect.poll(async () => ((await (await fetch(`${browserURL}/json/list`)).json()) as { type: string; url: string }[]).some((t) => t.type === 'page' && t.url.endsWith('/secrets.html'))).toBe(true);
  // Let the recorder capture the page for a while, then stop its worker as Chrome does after 30 s idle.
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  await withBrowserCdp(browserURL, async (send) => {
    const { targetInfos } = (await send('Target.getTargets')) as { targetInfos: { targetId: string; type: string }[] };
    const page = targetInfos.find((t) => t.type === 'page')!;
    const { sessionId } = (await send('Target.attachToTarget', { targetId: page.targetId, flatten: true })) as { sessionId: string };
    await send('ServiceWorker.enable', {}, sessionId);
    await send('ServiceWorker.stopAllWorkers', {}, sessionId);
  });
  await expect.poll(() => listedWorkers(browserURL)).not.toContain(workerUrl);

  const outDir = path.join(tempDir(), 'bundles');
  const result = await runPython('failure_flow.py', [browserURL, outDir]);

  expect(result).toMatchObject({ extensionId: RECORDER_EXTENSION_ID, recording: true });
  expect(result.waitedBundleId).toBe(result.bundleId);
  expect(result.zipPath).toBe(path.join(outDir, `${String(result.bundleId)}.zip`));
  expect(result.refused).toMatch(/^afr\.configure: .*bufferSeconds/);
  const bundle = await openBundle(readFileSync(String(result.zipPath)));
  expect(bundle.manifest).toMatchObject({ bundle_id: result.bundleId, run_id: result.runId, failure_reason: 'agent_failure' });
  expect(bundle.manifest.url_at_failure).toContain('/secrets.html');
  expect(bundle.manifest.frames.length).toBeGreaterThan(0);
  const agentSteps = bundle.steps.steps.filter((s) => s.source === 'agent').map((s) => ({ kind: s.kind, action: s.action, outcome: s.outcome }));
  expect(agentSteps).toEqual(
    expect.arrayContaining([
      { kind: 'agent', action: 'open "Account settings"', outcome: 'ok' },
      { kind: 'agent', action: 'click "Save card"', outcome: 'fail' },
    ]),
  );
  expect(bundle.steps.steps.some((s) => s.kind === 'mark' && s.action.includes('payment form reached'))).toBe(true);
  expect(findSecrets(bundle, secretVariants())).toEqual([]);

  // The same browser from code without an event loop: SyncRecorder waits for a bundle's delivery to a
  // real S3-protocol store on loopback.
  const store = await startS3Store();
  try {
    const upload = {
      mode: 's3',
      s3: { endpoint: store.endpoint, bucket: store.bucket, region: S3_CREDENTIALS.region, prefix: 'fleet/py', accessKeyId: S3_CREDENTIALS.accessKeyId, secretAccessKey: S3_CREDENTIALS.secretAccessKey },
    };
    const sync = await runPython('sync_delivery.py', [browserURL, String(result.bundleId), JSON.stringify(upload)]);
    expect(sync.notQueued).toBe(`afr.waitDelivered: bundle ${String(result.bundleId)} is not queued for delivery (is the upload setting on?)`);
    const delivered = sync.delivered as { state: string; key: string; attempts: number };
    expect(delivered).toMatchObject({ state: 'delivered', key: expect.stringMatching(new RegExp(`^fleet/py/bundles/\\d{4}/\\d{2}/\\d{2}/${String(sync.bundleId)}\\.zip$`)) });
    expect(sync.listedUpload).toEqual(delivered);
    const objects = await store.objects();
    const zip = objects.get(delivered.key);
    expect(zip, `${delivered.key} in the bucket`).toBeDefined();
    expect((await openBundle(Buffer.from(zip!))).manifest).toMatchObject({ bundle_id: sync.bundleId, failure_reason: 'delivery_probe' });
  } finally {
    await store.close();
  }
});

test('Python client: no recorder is a clear RecorderNotFoundError; load_recorder loads it into a Chromium started without --load-extension', async ({ tempDir }) => {
  test.setTimeout(60_000);
  const browserURL = await startChromium(tempDir(), ['--enable-unsafe-extension-debugging', 'about:blank']);

  const result = await runPython('load_and_connect.py', [browserURL, EXTENSION_DIR]);

  expect(result.notFound).toMatch(/^Agent Flight Recorder not found within 2 s: no service worker at chrome-extension:\/\/<id>\/background\.js exposes globalThis\.afr\. /);
  expect(result.notFound).toContain('load_recorder');
  expect(result).toMatchObject({ extensionId: RECORDER_EXTENSION_ID, recording: true });
});

test('Node client: loadRecorder through a Puppeteer pipe session, then connectRecorderPuppeteer', async ({ tempDir }) => {
  const browser = await puppeteer.launch({
    executablePath: chromiumPath(),
    headless: true,
    pipe: true,
    // Puppeteer passes --disable-extensions unless told otherwise.
    enableExtensions: true,
    userDataDir: path.join(tempDir(), 'profile'),
    args: ['--no-sandbox', '--enable-unsafe-extension-debugging', SILENT_DEBUGGER_SWITCH, '--disable-gpu', '--no-first-run'],
  });
  try {
    expect(browser.targets().filter((t) => t.type() === 'service_worker')).toEqual([]);
    const id = await loadRecorder(await browser.target().createCDPSession(), EXTENSION_DIR);
    expect(id).toBe(RECORDER_EXTENSION_ID);
    const rec = await connectRecorderPuppeteer(browser, { timeoutMs: 10_000 });
    expect(rec.extensionId).toBe(RECORDER_EXTENSION_ID);
    expect((await rec.status()).recording).toBe(true);
  } finally {
    await browser.close();
  }
});

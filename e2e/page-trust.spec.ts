import { test, expect } from '@playwright/test';
import type { Frame, Page } from 'playwright-core';
import { afr, waitForFrames } from './support/afr';
import { exportBundle, findSecrets } from './support/bundle';
import { launchWithRecorder, type RecorderBrowser } from './support/launch';
import { secretVariants } from './support/secrets';
import { startSiteServer, type SiteServer } from './support/site-server';

// The page's trust boundary in a real browser: a page, and above all an iframe inside it (an ad,
// another site's widget), never speaks for the agent. One browser for the whole file: each test
// works in tabs of its own.

test.describe.configure({ mode: 'serial' });

let recorder: RecorderBrowser;
let site: SiteServer;
/** The same demo site on another origin (`localhost` rather than `127.0.0.1`): a cross-origin frame. */
let otherOrigin: string;
const workerLogs: string[] = [];

test.beforeAll(async () => {
  site = await startSiteServer();
  otherOrigin = site.origin.replace('127.0.0.1', 'localhost');
  recorder = await launchWithRecorder();
  recorder.worker.on('console', (m) => workerLogs.push(m.text()));
  await afr(recorder.worker, 'configure', { postFailureSeconds: 0, failureCooldownMs: 0 });
});

test.afterAll(async () => {
  await recorder?.close();
  await site?.close();
});

const post = (m: Record<string, unknown>) => window.postMessage({ source: 'agent-flight-recorder', ...m }, '*');

/** The browser's id of the tab showing `page`. */
async function tabIdOf(page: Page): Promise<number> {
  const url = page.url();
  const id = await recorder.worker.evaluate(async (u) => (await chrome.tabs.query({})).find((t) => t.url === u)?.id, url);
  if (id === undefined) throw new Error(`no tab shows ${url}`);
  return id;
}

/** Adds `count` iframes of `src` to the page and resolves once each has loaded. */
async function addFrames(page: Page, src: string, count: number): Promise<Frame[]> {
  const known = new Set(page.frames());
  await page.evaluate(
    ([s, n]) =>
      Promise.all(
        Array.from({ length: n }, () => {
          const frame = document.createElement('iframe');
          frame.src = s;
          frame.style.cssText = 'width:120px;height:60px;border:0';
          document.body.append(frame);
          return new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
        }),
      ),
    [src, count] as const,
  );
  const frames = page.frames().filter((f) => !known.has(f));
  expect(frames).toHaveLength(count);
  // Their content scripts connect at document_start; give their ports a moment to reach the worker.
  await page.waitForTimeout(500);
  return frames;
}

test('a cross-origin iframe cannot start or end a run, nor fail the page; the top frame still can, never for the agent', async () => {
  const page = await recorder.context.newPage();
  await page.goto(`${site.origin}/index.html?tab=iframe`);
  await waitForFrames(recorder.worker, 1);
  const runId = await afr(recorder.worker, 'runStart', { runId: 'agent-run', agent: 'e2e-agent', task: 'shop' });
  const [ad] = await addFrames(page, `${otherOrigin}/frame-card.html`, 1);
  await ad!.evaluate(post, { type: 'runStart', runId: 'ad-run', agent: 'ad' });
  await ad!.evaluate(post, { type: 'fail', reason: 'ad_failure', label: 'forged by the ad' });
  await ad!.evaluate(post, { type: 'runEnd', outcome: 'failed' });
  // The top frame may not end or replace the agent's run either.
  await page.evaluate(post, { type: 'runEnd', outcome: 'failed' });
  await page.evaluate(post, { type: 'runStart', runId: 'page-run' });
  await page.waitForTimeout(1_500);

  expect(await afr(recorder.worker, 'listBundles')).toEqual([]);
  const status = await afr(recorder.worker, 'status');
  expect(status).toMatchObject({ runId, run: { active: true, agent: 'e2e-agent', task: 'shop' } });
  expect(status.pageLimits.framesRefused).toBe(3);
  expect(status.pageLimits.runCommandsRefused).toBe(2);
  expect(workerLogs.some((l) => /ignored a page command from frame \d+ of tab \d+ \(http:\/\/localhost:\d+\)/.test(l))).toBe(true);

  // The top frame's fail is the page's: bundled (not downloaded), of the agent's run, at the page's URL.
  await page.evaluate(post, { type: 'fail', reason: 'page_failure', label: 'from the top frame' });
  await expect.poll(async () => (await afr(recorder.worker, 'listBundles')).length, { timeout: 20_000 }).toBe(1);
  const [summary] = await afr(recorder.worker, 'listBundles');
  expect(summary).toMatchObject({ reason: 'page_failure', trigger: 'page', downloadId: null });
  const bundle = await exportBundle(recorder.worker, summary!.id);
  expect(bundle.manifest).toMatchObject({ run_id: 'agent-run', run: { agent: 'e2e-agent' } });
  expect(bundle.manifest.url_at_failure).toContain(`${site.origin}/index.html`);
  expect(JSON.stringify(bundle.steps)).not.toMatch(/ad-run|ad_failure|forged by the ad/);
  expect(findSecrets(bundle, secretVariants())).toEqual([]);
  await afr(recorder.worker, 'runEnd', {});
  await page.close();
});

test("30 iframes flooding a tab stay within the tab's quota, and another tab's agent steps are all in its bundle", async () => {
  const agentPage = await recorder.context.newPage();
  await agentPage.goto(`${site.origin}/checkout.html?tab=agent`);
  const agentTab = await tabIdOf(agentPage);
  for (let i = 0; i < 20; i++) await afr(recorder.worker, 'step', { tabId: agentTab, action: `agent step ${i}` });

  const flooded = await recorder.context.newPage();
  await flooded.goto(`${site.origin}/index.html?tab=flood`);
  const floodTab = await tabIdOf(flooded);
  const frames = [...(await addFrames(flooded, `${otherOrigin}/frame-card.html`, 15)), ...(await addFrames(flooded, `${site.origin}/frame-card.html`, 15))];
  expect(frames).toHaveLength(30);
  const before = (await afr(recorder.worker, 'status')).pageLimits;
  const started = Date.now();
  const flood = () => {
    for (let i = 0; i < 100; i++) {
      window.postMessage({ source: 'agent-flight-recorder', type: 'step', action: `flood ${i}` }, '*');
      // Untrusted: dispatched by the page's script, not input from the browser.
      document.body.click();
    }
  };
  await Promise.all([flooded.evaluate(flood), ...frames.map((f) => f.evaluate(flood))]);
  await flooded.waitForTimeout(1_000);
  const seconds = (Date.now() - started) / 1000;
  const after = (await afr(recorder.worker, 'status')).pageLimits;
  // Every frame's page commands were refused; the top frame's went in within the tab's quota.
  expect(after.framesRefused - before.framesRefused).toBe(3_000);
  expect(after.stepsDropped - before.stepsDropped).toBeGreaterThan(2_000);

  const floodBundle = await exportBundle(recorder.worker, await afr(recorder.worker, 'fail', { tabId: floodTab, reason: 'probe_flood' }));
  const steps = floodBundle.steps.steps;
  const commands = steps.filter((s) => s.source === 'agent' && s.action.startsWith('flood'));
  const synthetic = steps.filter((s) => s.synthetic);
  expect(commands.every((s) => s.frame_id === 0)).toBe(true);
  expect(commands.length).toBeLessThanOrEqual(100 + Math.ceil(20 * seconds));
  expect(synthetic.length).toBeGreaterThan(0);
  expect(synthetic.length).toBeLessThanOrEqual(20 + Math.ceil(5 * seconds));
  expect(synthetic.every((s) => s.kind === 'click')).toBe(true);
  expect(findSecrets(floodBundle, secretVariants())).toEqual([]);

  const agentBundle = await exportBundle(recorder.worker, await afr(recorder.worker, 'fail', { tabId: agentTab, reason: 'probe_agent' }));
  const agentSteps = agentBundle.steps.steps.filter((s) => s.source === 'agent' && s.frame_id === null).map((s) => s.action);
  expect(agentSteps).toEqual(Array.from({ length: 20 }, (_, i) => `agent step ${i}`));
  expect(findSecrets(agentBundle, secretVariants())).toEqual([]);
  await flooded.close();
  await agentPage.close();
});

test("with persistMode always, a page's repeated runEnd and fail make at most its quota of bundles, none downloaded, and the operator's are kept", async () => {
  const page = await recorder.context.newPage();
  await page.goto(`${site.origin}/index.html?tab=page-bundles`);
  const tabId = await tabIdOf(page);
  await afr(recorder.worker, 'configure', { persistMode: 'always', autoDownload: true });
  // Two bundles the operator saved from the extension's pages (as the popup's "Save bundle now" does).
  const library = await recorder.context.newPage();
  await library.goto(`chrome-extension://${recorder.extensionId}/library.html`);
  for (let i = 0; i < 2; i++) {
    const answer = await library.evaluate((tab) => chrome.runtime.sendMessage({ type: 'ui/api', method: 'saveBundle', args: [{ tabId: tab }] }), tabId);
    expect(answer).toMatchObject({ ok: true });
  }
  // What the agent and the operator asked for: the store is full but for one bundle (the page's bundle of the first test goes first).
  const kept = (await afr(recorder.worker, 'listBundles')).filter((b) => b.trigger !== 'page');
  expect(kept.filter((b) => b.trigger === 'operator')).toHaveLength(2);
  await afr(recorder.worker, 'configure', { maxStoredBundles: kept.length + 1 });
  const downloads = () => recorder.worker.evaluate(async () => (await chrome.downloads.search({})).length);
  const downloadsBefore = await downloads();
  const logsBefore = workerLogs.length;

  for (let round = 0; round < 8; round++) {
    await page.evaluate(post, { type: 'runStart', runId: `page-run-${round}` });
    await page.evaluate(post, { type: 'runEnd', outcome: round % 2 ? 'failed' : 'passed' });
    await page.evaluate(post, { type: 'fail', reason: 'page_flood' });
    await page.waitForTimeout(400);
  }
  await page.waitForTimeout(3_000);

  const made = workerLogs.slice(logsBefore).filter((l) => /\[afr\] bundle afr-\S+ \((run_passed|run_failed|page_flood)\) ready/.test(l));
  expect(made.length).toBeGreaterThanOrEqual(1);
  expect(made.length).toBeLessThanOrEqual(2);
  expect((await afr(recorder.worker, 'status')).pageLimits.bundlesRefused).toBeGreaterThan(0);
  const listed = await afr(recorder.worker, 'listBundles');
  // Every bundle stored before is still there; of the page's, the one there was room for.
  expect(listed.map((b) => b.id)).toEqual(expect.arrayContaining(kept.map((b) => b.id)));
  const pages = listed.filter((b) => !kept.some((k) => k.id === b.id));
  expect(pages).toHaveLength(1);
  expect(pages[0]).toMatchObject({ trigger: 'page', downloadId: null, tabId });
  expect(await downloads()).toBe(downloadsBefore);
  expect(findSecrets(await exportBundle(recorder.worker, pages[0]!.id), secretVariants())).toEqual([]);
  await library.close();
  await page.close();
});

import type { Browser, WebWorker } from 'puppeteer-core';
import type { AutomationApi } from '../src/recorder/automation-api';
import { findSecrets, openBundle } from './support/bundle';
import { expect, test } from './support/fixtures';
import { launchWithStartUrl, type CommandLineBrowser } from './support/launch';
import { secretVariants } from './support/secrets';

// A page given on Chromium's command line (`chromium --load-extension=… <url>`), as agent frameworks
// start their browser, with the agent's run declared at once: the worker starts and `runStart` binds
// the tab before the tab has committed its page (the demo server answers it 1.5 s late). One browser.

const PAGE_TITLE = 'Order status';
/** Chromium leaves the command-line page unloaded in about half the launches on a busy machine (below). */
const LAUNCHES = 4;

/** The title of the command-line page once its document is in, as the DevTools target list shows it. */
async function pageTitle(browserURL: string): Promise<string> {
  const targets = (await (await fetch(`${browserURL}/json/list`)).json()) as { type: string; url: string; title: string }[];
  return targets.find((t) => t.type === 'page' && t.url.includes('/errors.html'))?.title ?? '';
}

type Afr = <K extends keyof AutomationApi>(method: K, ...args: Parameters<AutomationApi[K]>) => Promise<Awaited<ReturnType<AutomationApi[K]>>>;

/** `globalThis.afr` of the recorder's service worker, as soon as the worker is there (the agent's first call). */
async function recorderOf(browser: Browser): Promise<Afr> {
  const target = await browser.waitForTarget((t) => t.type() === 'service_worker' && t.url().endsWith('/background.js'));
  const worker: WebWorker = (await target.worker())!;
  await expect.poll(() => worker.evaluate(() => typeof (globalThis as { afr?: unknown }).afr), { timeout: 10_000 }).toBe('object');
  return ((method: string, ...args: unknown[]) =>
    worker.evaluate((m, a) => (globalThis as unknown as { afr: Record<string, (...x: unknown[]) => unknown> }).afr[m]!(...a), method, args)) as Afr;
}

/**
 * Chromium 156 now and then never loads the page given on its command line when an extension holding
 * the `webRequest` permission is loaded: the tab stays blank (an empty URL for every extension API, the
 * URL only in DevTools' target list), and a test extension of a few lines with that permission does
 * the same, and it stays so (30 s watched). Nothing an extension can do starts it (not `tabs.reload`):
 * such a launch is not the recorder's to record, and is started again; after LAUNCHES such launches the
 * test is skipped with the reason. Anything else fails the test.
 */
async function launchLoaded(startUrl: string, declareRun: (afr: Afr) => Promise<string>) {
  for (let attempt = 1; attempt <= LAUNCHES; attempt++) {
    const launched = await launchWithStartUrl(startUrl);
    const afr = await recorderOf(launched.browser);
    const runId = await declareRun(afr);
    const loaded = await expect
      .poll(() => pageTitle(launched.browserURL), { timeout: 8_000 })
      .toBe(PAGE_TITLE)
      .then(() => true, () => false);
    if (loaded) return { launched, afr, runId };
    test.info().annotations.push({ type: 'chromium', description: `launch ${attempt}: Chromium left the command-line page unloaded; started again` });
    await launched.close();
  }
  // Chromium's stall, not the recorder's (see above): said in the report as a skip, never a failure.
  test.skip(true, `Chromium left the page given on its command line unloaded in ${LAUNCHES} launches out of ${LAUNCHES}`);
  throw new Error('unreachable: test.skip ends the test');
}

async function pageOf(browser: Browser, path: string) {
  const page = (await browser.pages()).find((p) => p.url().includes(path));
  if (!page) throw new Error(`no page at ${path}: ${(await browser.pages()).map((p) => p.url()).join(', ')}`);
  return page;
}

test('a page given on the command line is recorded from the start: runStart binds its tab, its failure bundles its frames, steps and snapshot with its URL', async ({ site }) => {
  test.setTimeout(240_000);
  let launched: CommandLineBrowser | undefined;
  try {
    const started = await launchLoaded(`${site.origin}/errors.html?delay=1500`, async (afr) => {
      // The agent's tabs only: the page is recorded only when runStart bound its tab.
      await afr('configure', { scope: 'agent', failureCooldownMs: 0 });
      return afr('runStart', { agent: 'start-url-e2e', task: 'the page given on the command line' });
    });
    launched = started.launched;
    const { afr, runId } = started;

    const { scope } = await afr('status');
    expect(scope.agentTabs).toHaveLength(1);
    const tabId = scope.agentTabs[0]!;
    // status() names the tab with its page, recorded, its debugger session open, and frames come.
    await expect
      .poll(async () => (await afr('status')).tabs.find((t) => t.tabId === tabId))
      .toMatchObject({ url: expect.stringContaining('/errors.html'), recorded: true, debugger: true });
    await expect.poll(async () => (await afr('status')).frames).toBeGreaterThan(0);

    const page = await pageOf(launched.browser, '/errors.html');
    const since = Date.now();
    await page.click('#throw');
    const summary = await afr('waitForBundle', { since, reason: 'page_exception', timeoutMs: 30_000 });
    const bundle = await openBundle(Buffer.from(await afr('exportBundle', summary!.id), 'base64'));

    expect(bundle.manifest).toMatchObject({ run_id: runId, tab_id: tabId, failure_reason: 'page_exception', url_at_failure: expect.stringContaining('/errors.html') });
    expect(bundle.manifest.frames.length).toBeGreaterThan(0);
    for (const frame of bundle.manifest.frames) expect(bundle.files.get(frame.name)?.byteLength, frame.name).toBeGreaterThan(0);
    expect(bundle.snapshot.snapshot?.url).toContain('/errors.html');
    // The run's start is the tab's, and the page's own steps carry its URL.
    expect(bundle.steps.steps.find((s) => s.kind === 'run' && s.action === 'run start')).toMatchObject({ tab_id: tabId });
    const clicks = bundle.steps.steps.filter((s) => s.action.includes('click'));
    expect(clicks.length).toBeGreaterThan(0);
    for (const click of clicks) expect(click).toMatchObject({ tab_id: tabId, url: expect.stringContaining('/errors.html') });
    expect(findSecrets(bundle, secretVariants())).toEqual([]);
  } finally {
    await launched?.close();
  }
});

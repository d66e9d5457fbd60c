import type { Page } from '@playwright/test';
import { test, expect } from './support/fixtures';
import { afr, waitForFrames, waitForNewBundle } from './support/afr';
import { exportBundle } from './support/bundle';
import type { RecorderBrowser } from './support/launch';
import { decodeGray, lumaStats } from './support/pixels';

async function openSignalsPage(recorder: RecorderBrowser, origin: string): Promise<Page> {
  const page = recorder.context.pages()[0] ?? (await recorder.context.newPage());
  await page.goto(`${origin}/signals.html`);
  await waitForFrames(recorder.worker, 1);
  // The debugger attaches as the page loads; signals before that come from the fallbacks.
  await expect.poll(async () => (await afr(recorder.worker, 'status')).tabs.some((t) => t.debugger)).toBe(true);
  return page;
}

/** Steps of kind `signal` on the timeline, as seen through a bundle made on request. */
async function timelineSignals(recorder: RecorderBrowser): Promise<{ kind?: string; disposition?: string; url?: string }[]> {
  const bundle = await exportBundle(recorder.worker, await afr(recorder.worker, 'fail', { reason: 'probe' }));
  return bundle.steps.steps
    .filter((s) => s.kind === 'signal' && s.detail?.signal_kind !== undefined)
    .map((s) => ({ kind: s.detail!.signal_kind, disposition: s.detail!.disposition, url: s.detail!.request_url }));
}

test('a fetch answered with 500 produces an http_5xx bundle naming the request', async ({ recorder, site }) => {
  const page = await openSignalsPage(recorder, site.origin);
  await page.click('#pay');
  const bundle = await exportBundle(recorder.worker, await waitForNewBundle(recorder.worker));
  expect(bundle.manifest.failure_reason).toBe('http_5xx');
  expect(bundle.diagnostics.failure.request).toMatchObject({ method: 'POST', status: 500, url: `${site.origin}/api/status/500` });
  expect(bundle.diagnostics.failed_requests.at(-1)).toMatchObject({ status: 500, method: 'POST' });
  expect(bundle.manifest.url_at_failure).toContain('/signals.html');
  const summary = bundle.files.get('summary.md')?.toString('utf8');
  if (summary) expect(summary).toContain('answered 500');
});

test('a request that cannot reach its server produces a network_failure bundle', async ({ recorder, site }) => {
  const page = await openSignalsPage(recorder, site.origin);
  await page.click('#offline');
  const bundle = await exportBundle(recorder.worker, await waitForNewBundle(recorder.worker));
  expect(bundle.manifest.failure_reason).toBe('network_failure');
  expect(bundle.diagnostics.failure.request?.error_text).toMatch(/^net::ERR_/);
});

test('a crashed renderer produces a tab_crashed bundle with the frames up to the crash', async ({ recorder, site }) => {
  const page = await openSignalsPage(recorder, site.origin);
  await waitForFrames(recorder.worker, 3);
  // The page's last state: a dark cover over the viewport, with a spinner of its own so that the
  // screencast keeps sending frames of it.
  await page.evaluate(() => {
    const cover = document.createElement('div');
    cover.style.cssText = 'position:fixed;inset:0;background:rgb(20,20,90);z-index:2147483647';
    cover.innerHTML = '<span class="spinner" style="position:absolute;left:20px;top:20px"></span>';
    document.body.append(cover);
  });
  const coveredAt = Date.now();
  const before = (await afr(recorder.worker, 'status')).frames;
  await waitForFrames(recorder.worker, before + 3);
  const crashedAt = Date.now();
  // chrome://crash kills the tab's renderer (Playwright reports the navigation as aborted).
  await page.goto('chrome://crash').catch(() => undefined);
  const bundle = await exportBundle(recorder.worker, await waitForNewBundle(recorder.worker));
  expect(bundle.manifest.failure_reason).toBe('tab_crashed');
  const { frames } = bundle.manifest;
  expect(frames.length).toBeGreaterThanOrEqual(before + 3);
  // The frames before the cover show the page; the last ones, taken between the cover and the crash, the cover.
  const viewport = page.viewportSize()!;
  const middle = { x: viewport.width / 4, y: 100, width: viewport.width / 2, height: 300 };
  const lumaOf = async (frame: (typeof frames)[number]) =>
    lumaStats(await decodeGray(bundle.files.get(frame.name)!, frame.width, frame.height), middle, viewport.width).mean;
  expect(await lumaOf(frames[0]!), `the page in ${frames[0]!.name}`).toBeGreaterThan(120);
  const last = frames.at(-1)!;
  expect(await lumaOf(last), `the cover in ${last.name}`).toBeLessThan(60);
  expect(last.ts).toBeGreaterThanOrEqual(coveredAt);
  expect(last.ts).toBeLessThanOrEqual(crashedAt + 1_000);
});

test("a still page's one change before its error is in the bundle's last frame, though the screencast may never have sent it", async ({ recorder, site }) => {
  const page = recorder.context.pages()[0] ?? (await recorder.context.newPage());
  // The banner shows 3 s after the load, by itself, then the page throws: no action, nothing animates.
  await page.goto(`${site.origin}/late-error.html?after=3000`);
  await expect.poll(async () => (await afr(recorder.worker, 'status')).tabs.some((t) => t.debugger)).toBe(true);
  const bundle = await exportBundle(recorder.worker, await waitForNewBundle(recorder.worker));
  expect(bundle.manifest.failure_reason).toBe('page_exception');
  const banner = (await page.locator('#banner').boundingBox())!;
  const last = bundle.manifest.frames.at(-1)!;
  const img = await decodeGray(bundle.files.get(last.name)!, last.width, last.height);
  // The banner's dark red (luma about 75) where the page was white before.
  expect(lumaStats(img, banner, page.viewportSize()!.width).mean, `the banner in ${last.name} (${last.source})`).toBeLessThan(140);
});

test('a 404 image, a 401 API call and a console error go on the timeline without a bundle', async ({ recorder, site }) => {
  const page = await openSignalsPage(recorder, site.origin);
  await page.click('#broken-image');
  await page.click('#profile');
  await page.click('#console-error');
  await expect(page.locator('#status')).toHaveText('Answered 401');
  await page.waitForTimeout(1_000);
  expect(await afr(recorder.worker, 'listBundles')).toEqual([]);
  const signals = await timelineSignals(recorder);
  // The browser's own favicon request (a 404 here) is nobody's failure: it leaves no signal.
  expect(signals.filter((s) => s.url?.endsWith('/favicon.ico'))).toEqual([]);
  expect(signals).toEqual(expect.arrayContaining([
    { kind: 'http_4xx', disposition: 'record', url: `${site.origin}/missing-avatar.png` },
    { kind: 'http_4xx', disposition: 'record', url: `${site.origin}/api/status/401` },
    { kind: 'console_error', disposition: 'record', url: undefined },
  ]));
});

test('an exception thrown as the page loads, before the debugger session is ready, is one signal and one bundle', async ({ recorder, site }) => {
  const page = recorder.context.pages()[0] ?? (await recorder.context.newPage());
  await page.goto(`${site.origin}/load-error.html`);
  // The page reports it itself (no session yet); the session, once ready, replays it.
  await expect.poll(async () => (await afr(recorder.worker, 'status')).tabs.some((t) => t.debugger)).toBe(true);
  const bundleId = await waitForNewBundle(recorder.worker);
  await page.waitForTimeout(1_500);
  expect((await afr(recorder.worker, 'listBundles')).map((b) => b.id)).toEqual([bundleId]);
  const exceptions = (await timelineSignals(recorder)).filter((s) => s.kind === 'exception');
  expect(exceptions).toEqual([{ kind: 'exception', disposition: 'trigger', url: undefined }]);
});

test('a configured rule makes 401s on API calls trigger, and filtered exceptions do not', async ({ recorder, site }) => {
  await afr(recorder.worker, 'configure', {
    signals: { http_4xx: { action: 'trigger', statuses: [401, 403], urls: ['*/api/*'] }, exception: { ignoreMessages: ['ResizeObserver loop'] } },
  } as never);
  const page = await openSignalsPage(recorder, site.origin);
  await page.click('#noise');
  await page.click('#broken-image');
  await page.waitForTimeout(1_500);
  expect(await afr(recorder.worker, 'listBundles')).toEqual([]);
  await page.click('#profile');
  const bundle = await exportBundle(recorder.worker, await waitForNewBundle(recorder.worker));
  expect(bundle.manifest.failure_reason).toBe('http_4xx');
  expect(bundle.diagnostics.failure.http_status).toBe(401);
});

test('persistMode always bundles a passing run at runEnd', async ({ recorder, site }) => {
  await afr(recorder.worker, 'configure', { persistMode: 'always' });
  const page = recorder.context.pages()[0] ?? (await recorder.context.newPage());
  await page.goto(`${site.origin}/index.html`);
  await waitForFrames(recorder.worker, 2);
  const runId = await afr(recorder.worker, 'runStart', { agent: 'shop-bot', agentVersion: '1.0', task: 'add shoes to the cart' });
  await page.click('[data-testid="add-shoes"]');
  await afr(recorder.worker, 'assert', { label: 'cart shows 1 item', passed: true, expected: '1', actual: '1' });
  await page.evaluate(() => window.postMessage({ source: 'agent-flight-recorder', type: 'mark', label: 'cart updated' }, '*'));
  const id = await afr(recorder.worker, 'runEnd', { outcome: 'passed' });
  expect(id).not.toBeNull();
  const bundle = await exportBundle(recorder.worker, id!);
  expect(bundle.manifest).toMatchObject({ status: 'success', failure_reason: 'run_passed', run_id: runId, run: { agent: 'shop-bot', task: 'add shoes to the cart', outcome: 'passed' } });
  expect(bundle.steps.steps.map((s) => s.kind)).toEqual(expect.arrayContaining(['run', 'assert', 'mark', 'click']));
});

test('a failed assertion from the page bundles with its expected and actual values', async ({ recorder, site }) => {
  const page = await openSignalsPage(recorder, site.origin);
  await page.evaluate(() =>
    window.postMessage({ source: 'agent-flight-recorder', type: 'assert', label: 'status shows Ready', passed: false, expected: 'Ready', actual: 'Loading' }, '*'),
  );
  const bundle = await exportBundle(recorder.worker, await waitForNewBundle(recorder.worker));
  expect(bundle.manifest).toMatchObject({ failure_reason: 'assertion_failed', failure_label: 'status shows Ready', failure_message: 'status shows Ready: expected Ready, actual Loading' });
  const assert = bundle.steps.steps.find((s) => s.kind === 'assert');
  expect(assert?.detail).toMatchObject({ passed: false, expected: 'Ready', actual: 'Loading' });
});

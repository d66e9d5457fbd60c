import { test, expect } from './support/fixtures';
import { afr, waitForFrames, waitForNewBundle } from './support/afr';
import { decodeGray, lumaStats } from './support/pixels';
import { exportBundle, ffprobe } from './support/bundle';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT_DIR } from './support/launch';

test('an animated page is recorded from the screencast at several frames a second', async ({ recorder, site }) => {
  const page = recorder.context.pages()[0] ?? (await recorder.context.newPage());
  await page.goto(`${site.origin}/errors.html`); // has a spinning animation
  await expect.poll(async () => (await afr(recorder.worker, 'status')).tabs.find((t) => t.url?.includes('/errors.html'))?.source, { timeout: 15_000 }).toBe('screencast');
  const from = Date.now();
  await page.waitForTimeout(6_000);
  const to = Date.now();
  const bundle = await exportBundle(recorder.worker, await afr(recorder.worker, 'fail', { reason: 'probe' }));
  // Frames stored per second while the page animated: a loose floor (the machines are shared);
  // the benchmark measures the real rate.
  const stored = bundle.manifest.frames.filter((f) => f.ts >= from && f.ts <= to && f.source === 'screencast').length;
  expect(stored / ((to - from) / 1000)).toBeGreaterThanOrEqual(4);
  expect(bundle.manifest.capture).toMatchObject({ source: 'auto', fps: 8 });
  const sources = new Set(bundle.manifest.frames.map((f) => f.source));
  expect(sources).toContain('screencast');
  const clip = await ffprobe(bundle.files.get('failure.mp4')!);
  expect(clip.codec).toBe('h264');
  const expected = bundle.manifest.frames.reduce((s, f) => s + f.duration_ms, 0) / 1000;
  expect(Math.abs(clip.durationSeconds - expected)).toBeLessThan(0.3);
});

test('in auto mode the last state after a burst on a still page is in the ring before any failure, stored once however often captured', async ({ recorder, site }, testInfo) => {
  const page = recorder.context.pages()[0] ?? (await recorder.context.newPage());
  await page.goto(`${site.origin}/checkout.html`); // nothing moves on it by itself
  await waitForFrames(recorder.worker, 1);
  // A script going back and forth as fast as it can (a burst: about one frame a second), whose last
  // action turns the page dark, then waits.
  const burstFrom = Date.now();
  while (Date.now() - burstFrom < 1_500) {
    await page.click('#full-name');
    await page.click('h1');
  }
  await page.evaluate(() => {
    const cover = document.createElement('div');
    cover.style.cssText = 'position:fixed;inset:0;background:rgb(20,20,90);z-index:2147483647';
    document.body.append(cover);
  });
  await page.click('h1', { force: true });
  const lastActionAt = Date.now();
  await page.waitForTimeout(2_000);
  const failedAt = Date.now();
  const bundle = await exportBundle(recorder.worker, await afr(recorder.worker, 'fail', { reason: 'probe' }));
  // Frames stored after the last action and before the failure (not the failure's own screenshot);
  // an entry for identical captures in a row covers them up to its `last_ts`.
  const after = bundle.manifest.frames.filter((f) => (f.last_ts ?? f.ts) > lastActionAt && f.ts < failedAt);
  expect(after.length).toBeGreaterThanOrEqual(1);
  const frame = after.at(-1)!;
  const viewport = page.viewportSize() ?? { width: frame.width, height: frame.height };
  const img = await decodeGray(bundle.files.get(frame.name)!, frame.width, frame.height);
  expect(lumaStats(img, { x: 0, y: 0, ...viewport }, viewport.width).mean).toBeLessThan(60);

  // The still page's captures after the last action and the failure's screenshot are the same
  // picture: stored once, in one entry covering all those moments.
  const files = [...bundle.files.keys()].filter((n) => n.startsWith('frames/'));
  const captures = bundle.manifest.frames.reduce((n, f) => n + (f.captures ?? 1), 0);
  expect(files.length).toBe(bundle.manifest.frame_count);
  expect(captures).toBeGreaterThan(files.length);
  // Such an entry lasts past the last moment it stands for.
  const frames = bundle.manifest.frames;
  for (const f of frames.filter((f) => f.captures)) expect(f.ts + f.duration_ms).toBeGreaterThan(f.last_ts!);
  // The clip still plays each picture for its whole time.
  const clip = await ffprobe(bundle.files.get('failure.mp4')!);
  const expected = frames.reduce((s, f) => s + f.duration_ms, 0) / 1000;
  expect(Math.abs(clip.durationSeconds - expected)).toBeLessThan(0.3);
  // And `afr validate` takes the bundle as it is (it exits non-zero on any problem).
  const zipPath = testInfo.outputPath('still-page.zip');
  writeFileSync(zipPath, bundle.zip);
  expect(execFileSync(process.execPath, [path.join(ROOT_DIR, 'bin/afr.mjs'), 'validate', zipPath], { encoding: 'utf8' })).toMatch(/^valid: /);
});

test('captureSource visibleTab stops the screencast and paces captureVisibleTab', async ({ recorder, site }) => {
  await afr(recorder.worker, 'configure', { captureSource: 'visibleTab' });
  const page = recorder.context.pages()[0] ?? (await recorder.context.newPage());
  await page.goto(`${site.origin}/errors.html`);
  await waitForFrames(recorder.worker, 3);
  const status = await afr(recorder.worker, 'status');
  expect(status.tabs.every((t) => t.source === 'visibleTab')).toBe(true);
  expect(status.quotaErrors).toBe(0);
  const bundle = await exportBundle(recorder.worker, await afr(recorder.worker, 'fail', { reason: 'probe' }));
  expect(bundle.manifest.frames.every((f) => f.source === 'visibleTab')).toBe(true);
});

test('a tab that is not visible is recorded too, its bundle is about it and lists what the other tab did', async ({ recorder, site }) => {
  // The other tabs' activity is in diagnostics.json only when asked for.
  await afr(recorder.worker, 'configure', { diagnosticsOtherTabs: true });
  const first = recorder.context.pages()[0] ?? (await recorder.context.newPage());
  await first.goto(`${site.origin}/index.html`);
  const second = await recorder.context.newPage();
  await second.goto(`${site.origin}/checkout.html`);
  await expect.poll(async () => (await afr(recorder.worker, 'status')).frames, { timeout: 15_000 }).toBeGreaterThan(3);
  await second.fill('#full-name', 'Jane Doe');
  await second.click('h1');
  // Act in the first tab (not the visible one, or in its own window): it gets frames of its own.
  await first.click('[data-testid="add-shoes"]');
  await first.click('[data-testid="add-jacket"]');
  await first.waitForTimeout(1_500);
  await first.evaluate(() => window.postMessage({ source: 'agent-flight-recorder', type: 'fail', reason: 'assertion_failed', label: 'first tab' }, '*'));
  await expect.poll(async () => (await afr(recorder.worker, 'listBundles')).length, { timeout: 20_000 }).toBe(1);
  const [summary] = await afr(recorder.worker, 'listBundles');
  const bundle = await exportBundle(recorder.worker, summary!.id);
  expect(bundle.manifest.url_at_failure).toContain('/index.html');
  expect(bundle.manifest.frame_count).toBeGreaterThanOrEqual(1);
  expect(bundle.steps.steps.some((s) => s.url?.includes('/checkout.html'))).toBe(false);
  // The other tab's activity, summed up in diagnostics.json.
  const others = bundle.diagnostics!.other_tabs ?? [];
  expect(others).toHaveLength(1);
  expect(others[0]).toMatchObject({ url: expect.stringContaining('/checkout.html') as unknown });
  expect(others[0]!.steps).toBeGreaterThanOrEqual(2);
  expect(others[0]!.frames).toBeGreaterThanOrEqual(1);
  expect(others[0]!.last_steps.map((s) => s.action)).toEqual(expect.arrayContaining(['type', 'click']));
});

test('when Chrome ends the debugger session (a chrome:// page), recording goes on and the screencast resumes on the next web page', async ({ recorder, site }) => {
  const logs: string[] = [];
  recorder.worker.on('console', (m) => logs.push(m.text()));
  const page = recorder.context.pages()[0] ?? (await recorder.context.newPage());
  const source = async () => (await afr(recorder.worker, 'status')).tabs.find((t) => t.url?.includes('/errors.html'))?.source;
  await page.goto(`${site.origin}/errors.html`);
  await expect.poll(source, { timeout: 15_000 }).toBe('screencast');
  await page.waitForTimeout(1_500);
  const away = Date.now();
  // Extensions may not debug chrome:// pages: Chrome detaches the session as the tab gets there.
  await page.goto('chrome://version');
  await expect.poll(() => logs.find((l) => /debugger detached from tab \d+ \(target_closed\)/.test(l)), { timeout: 10_000 }).toBeTruthy();
  const back = Date.now();
  await page.goto(`${site.origin}/errors.html`);
  await expect.poll(source, { timeout: 15_000 }).toBe('screencast');
  await page.waitForTimeout(2_000);
  const bundle = await exportBundle(recorder.worker, await afr(recorder.worker, 'fail', { reason: 'probe' }));
  expect(bundle.manifest.frames.filter((f) => f.ts > back && f.source === 'screencast').length).toBeGreaterThanOrEqual(4);
  // The frames from before the detach are kept.
  expect(bundle.manifest.frames.filter((f) => f.ts < away && f.source === 'screencast').length).toBeGreaterThanOrEqual(4);
  expect(bundle.diagnostics!.debugger).toEqual({ attached: true, error: null });
});

test('when the window changes size, frames wait for the page to report its regions again, then go on', async ({ recorder, site }) => {
  const page = recorder.context.pages()[0] ?? (await recorder.context.newPage());
  await page.goto(`${site.origin}/errors.html`); // animated: the screencast sends frames all the time
  await expect.poll(async () => (await afr(recorder.worker, 'status')).tabs[0]?.source, { timeout: 15_000 }).toBe('screencast');
  await page.waitForTimeout(1_000);
  // Resize the browser window itself (not the emulated viewport): the frames now show another surface.
  const cdp = await recorder.context.newCDPSession(page);
  const { windowId, bounds } = (await cdp.send('Browser.getWindowForTarget')) as { windowId: number; bounds: { width: number; height: number } };
  const resizedAt = Date.now();
  await cdp.send('Browser.setWindowBounds', { windowId, bounds: { width: bounds.width, height: bounds.height - 120 } });
  await page.waitForTimeout(2_000);
  const bundle = await exportBundle(recorder.worker, await afr(recorder.worker, 'fail', { reason: 'probe' }));
  const after = bundle.manifest.frames.filter((f) => f.ts > resizedAt);
  const before = bundle.manifest.frames.filter((f) => f.ts < resizedAt && f.source === 'screencast');
  // The screencast goes on after the resize, at several frames a second (a loose floor), showing the shorter window.
  const shorter = after.filter((f) => f.source === 'screencast' && f.height < before.at(-1)!.height);
  expect(shorter.length).toBeGreaterThanOrEqual(4);
});

test('in auto mode a burst of actions holds the screencast: captureVisibleTab records it, and the screencast comes back once the agent waits', async ({
  recorder,
  site,
}) => {
  const page = recorder.context.pages()[0] ?? (await recorder.context.newPage());
  await page.goto(`${site.origin}/index.html`); // a spinner: the screencast sends frames all the time
  await expect.poll(async () => (await afr(recorder.worker, 'status')).tabs[0]?.source, { timeout: 15_000 }).toBe('screencast');
  await page.waitForTimeout(1_000);
  // A script adding to the cart as fast as it can, for about 3 s.
  const burstFrom = Date.now();
  while (Date.now() - burstFrom < 3_000) await page.click('[data-testid="add-shoes"]');
  const burstTo = Date.now();
  await page.waitForTimeout(2_500); // the agent waits: the screencast starts again
  const bundle = await exportBundle(recorder.worker, await afr(recorder.worker, 'fail', { reason: 'probe' }));
  const frames = bundle.manifest.frames;
  const between = (from: number, to: number, source: string) => frames.filter((f) => f.ts >= from && f.ts <= to && f.source === source).length;
  // Held from the burst's second action on: the spinner would give about 20 frames here. A few may
  // come if one click takes over 600 ms on a loaded machine (the burst ends, the screencast restarts).
  expect(between(burstFrom + 500, burstTo, 'screencast')).toBeLessThanOrEqual(3);
  // Meanwhile the visible tab is captureVisibleTab's, about one frame a second (loosely).
  expect(between(burstFrom, burstTo + 500, 'visibleTab')).toBeGreaterThanOrEqual(2);
  // The spinner is recorded from the screencast again, at several frames a second (a loose floor).
  expect(between(burstTo + 1_000, burstTo + 2_500, 'screencast')).toBeGreaterThanOrEqual(4);
  expect(bundle.manifest.capture).toMatchObject({ source: 'auto' });
  expect(await page.locator('#cart-count').textContent()).not.toBe('0');
});

test("a hidden tab's failure bundle ends with a frame of its page as it was, though it has no screencast and took no action", async ({ recorder, site }) => {
  await afr(recorder.worker, 'configure', { captureSource: 'visibleTab' });
  const visible = recorder.context.pages()[0] ?? (await recorder.context.newPage());
  await visible.goto(`${site.origin}/index.html`);
  await waitForFrames(recorder.worker, 2);
  // A tab opened behind the visible one, in the same window: captureVisibleTab never sees it. Its
  // page shows a banner by itself after 3 s, then throws.
  const opened = recorder.context.waitForEvent('page');
  await recorder.worker.evaluate(async (url) => {
    const [tab] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
    await chrome.tabs.create({ url, active: false, windowId: tab!.windowId });
  }, `${site.origin}/late-error.html?after=3000`);
  const hidden = await opened;
  await hidden.waitForLoadState('load');
  // `status` lists the visible tabs only: the hidden one is not among them.
  expect((await afr(recorder.worker, 'status')).tabs.map((t) => t.url)).not.toContainEqual(expect.stringContaining('/late-error.html'));
  const active = await recorder.worker.evaluate(async () => (await chrome.tabs.query({ url: '*://*/late-error.html*' })).map((t) => t.active));
  expect(active).toEqual([false]);
  const bundle = await exportBundle(recorder.worker, await waitForNewBundle(recorder.worker));
  expect(bundle.manifest.failure_reason).toBe('page_exception');
  expect(bundle.manifest.url_at_failure).toContain('/late-error.html');
  const last = bundle.manifest.frames.at(-1)!;
  expect(last.source).toBe('screenshot');
  const banner = await hidden.evaluate(() => {
    const r = document.getElementById('banner')!.getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height };
  });
  const img = await decodeGray(bundle.files.get(last.name)!, last.width, last.height);
  // The banner's dark red (luma about 75) where the page was white before.
  expect(lumaStats(img, banner, hidden.viewportSize()?.width ?? last.width).mean, `the banner in ${last.name}`).toBeLessThan(140);
});

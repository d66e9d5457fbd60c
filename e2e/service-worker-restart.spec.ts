import { test, expect } from './support/fixtures';
import { afr, waitForFrames } from './support/afr';
import { exportBundle } from './support/bundle';
import { restartedWorker, stopWorker } from './support/worker-restart';

test('stopping the service worker loses no frame captured before the stop, and capture and steps resume at once', async ({ recorder, site }) => {
  const page = recorder.context.pages()[0] ?? (await recorder.context.newPage());
  await page.goto(`${site.origin}/errors.html`); // animated: frames keep coming
  await waitForFrames(recorder.worker, 10);
  const before = await afr(recorder.worker, 'status');

  const stoppedAt = await stopWorker(recorder, page);

  // The page's content script starts a new worker at once, with its sensitive regions: no action of
  // the agent's, nor the 30-second alarm, is waited for. Find the new worker.
  const worker = await restartedWorker(recorder);
  await expect.poll(async () => (await afr(worker!, 'status')).frames, { timeout: 10_000 }).toBeGreaterThan(before.frames);
  await page.click('#throw').catch(() => undefined); // a step for the new worker

  await afr(worker!, 'configure', { failureCooldownMs: 0 });
  const bundle = await exportBundle(worker!, await afr(worker!, 'fail', { reason: 'after restart' }));
  const times = bundle.manifest.frames.map((f) => f.ts);
  const beforeStop = times.filter((t) => t < stoppedAt).length;
  const afterStop = times.filter((t) => t > stoppedAt);
  // The frames the old worker stored are in the new worker's bundle…
  expect(beforeStop).toBeGreaterThanOrEqual(Math.min(before.frames, 5));
  // …and the new worker records again.
  expect(afterStop.length).toBeGreaterThan(0);
  // The page's content script reaches the new worker too: its click after the restart is a step.
  expect(bundle.steps.steps.some((s) => s.kind === 'click' && s.ts > stoppedAt)).toBe(true);
  test.info().annotations.push({ type: 'first frame after the stop', description: `${afterStop[0]! - stoppedAt} ms` });
});

test('the settings hold through a stop: with persistMode manual, the page error that starts the new worker makes no bundle', async ({ recorder, site }) => {
  const page = recorder.context.pages()[0] ?? (await recorder.context.newPage());
  await page.goto(`${site.origin}/errors.html`);
  await waitForFrames(recorder.worker, 3);
  await afr(recorder.worker, 'configure', { failureCooldownMs: 0, persistMode: 'manual' });
  await stopWorker(recorder, page);
  // At once: the exception reaches the worker while it starts (from the page, and from CDP).
  await page.click('#throw');
  await page.waitForTimeout(1_500);
  const worker = await restartedWorker(recorder);
  expect((await afr(worker, 'getSettings')).persistMode).toBe('manual');
  expect(await afr(worker, 'listBundles')).toEqual([]);
  // Set back, the same error bundles: the setting, not a broken worker, held it back…
  await afr(worker, 'configure', { persistMode: 'on_fail' });
  await page.click('#throw');
  await expect.poll(async () => (await afr(worker, 'listBundles')).length, { timeout: 10_000 }).toBe(1);
  // …and the first error did reach the new worker: it is on the timeline, recorded, not bundled.
  const [listed] = await afr(worker, 'listBundles');
  const bundle = await exportBundle(worker, listed!.id);
  const errors = bundle.steps.steps.filter((s) => s.kind === 'signal' && s.detail?.signal_kind === 'exception');
  // Once: the page reports it while the new worker knows of no debugger session, and so does CDP.
  expect(errors.map((s) => s.detail?.disposition)).toEqual(['record', 'trigger']);
});

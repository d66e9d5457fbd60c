import type { Worker } from 'playwright-core';
import { test, expect } from './support/fixtures';
import { afr, waitForFrames } from './support/afr';
import { exportBundle } from './support/bundle';

test('stopping the service worker loses no frame captured before the stop, and capture and steps resume at once', async ({ recorder, site }) => {
  const page = recorder.context.pages()[0] ?? (await recorder.context.newPage());
  await page.goto(`${site.origin}/errors.html`); // animated: frames keep coming
  await waitForFrames(recorder.worker, 10);
  const before = await afr(recorder.worker, 'status');

  // Close the worker's target, as Chrome does to an idle or misbehaving worker.
  const cdp = await recorder.context.newCDPSession(page);
  const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: { type: string; url: string; targetId: string }[] };
  const target = targetInfos.find((t) => t.type === 'service_worker' && t.url.endsWith('/background.js'));
  expect(target).toBeDefined();
  const stoppedAt = Date.now();
  await cdp.send('Target.closeTarget', { targetId: target!.targetId });

  // The page's content script starts a new worker at once, with its sensitive regions: no action of
  // the agent's, nor the 30-second alarm, is waited for. Find the new worker.
  let worker: Worker | undefined;
  await expect
    .poll(async () => {
      worker = recorder.context.serviceWorkers().find((w) => w.url().endsWith('/background.js'));
      if (!worker) return false;
      return afr(worker, 'status')
        .then(() => true)
        .catch(() => false);
    }, { timeout: 10_000 })
    .toBe(true);
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

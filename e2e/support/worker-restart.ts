import type { BrowserContext, Page, Worker } from 'playwright-core';
import { expect } from '@playwright/test';
import { afr } from './afr';

/** Closes the extension's service worker target, as Chrome does to an idle or misbehaving worker. */
export async function stopWorker(recorder: { context: BrowserContext }, page: Page): Promise<number> {
  const cdp = await recorder.context.newCDPSession(page);
  const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: { type: string; url: string; targetId: string }[] };
  const target = targetInfos.find((t) => t.type === 'service_worker' && t.url.endsWith('/background.js'));
  expect(target).toBeDefined();
  const stoppedAt = Date.now();
  await cdp.send('Target.closeTarget', { targetId: target!.targetId });
  await cdp.detach();
  return stoppedAt;
}

/** The worker started again after a stop, once it answers. */
export async function restartedWorker(recorder: { context: BrowserContext }): Promise<Worker> {
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
  return worker!;
}

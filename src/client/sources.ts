import { isTargetGoneError } from './errors';
import type { PlaywrightContextLike, PuppeteerBrowserLike, PuppeteerTargetLike, WorkerSource } from './ports';

/**
 * Waits for `event` or `ms`, whichever is first. A rejection (the library's own timeout, anything else)
 * just ends the wait at `ms`, except one saying the browser is gone, which is passed on.
 */
async function eventOrTimeout(event: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const elapsed = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  const arrived = event.then(
    () => undefined,
    (error: unknown) => {
      if (isTargetGoneError(error)) throw error;
      return elapsed;
    },
  );
  try {
    await Promise.race([arrived, elapsed]);
  } finally {
    clearTimeout(timer);
  }
}

// Playwright treats `timeout: 0` as "no timeout".
const libraryTimeout = (ms: number) => Math.max(1, Math.ceil(ms));

/** Service workers of a Playwright `BrowserContext`. */
export function playwrightSource(context: PlaywrightContextLike): WorkerSource {
  return {
    candidates: () =>
      context.serviceWorkers().map((worker) => ({
        url: worker.url(),
        open: () => Promise.resolve(worker),
        // Playwright drops a worker from `serviceWorkers()` once it closed.
        isAlive: () => context.serviceWorkers().includes(worker),
      })),
    waitForNew: (ms) => eventOrTimeout(context.waitForEvent('serviceworker', { timeout: libraryTimeout(ms) }), ms),
  };
}

const isServiceWorker = (target: PuppeteerTargetLike) => target.type() === 'service_worker';

/** Service worker targets of a Puppeteer `Browser`. */
export function puppeteerSource(browser: PuppeteerBrowserLike): WorkerSource {
  return {
    candidates: () =>
      browser
        .targets()
        .filter(isServiceWorker)
        .map((target) => ({
          url: target.url(),
          open: () => target.worker(),
          // A stopped worker's target is destroyed; a restarted one is a new target.
          isAlive: () => browser.targets().includes(target),
        })),
    waitForNew: (ms) => {
      const known = new Set(browser.targets());
      return eventOrTimeout(browser.waitForTarget((t) => isServiceWorker(t) && !known.has(t), { timeout: libraryTimeout(ms) }), ms);
    },
  };
}

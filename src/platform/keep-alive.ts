import { browser } from 'wxt/browser';

/**
 * Keeps the service worker from its idle stop while `needed()` says so. Chrome stops a worker after
 * 30 s without events, and every extension API call resets that timer (Chrome 110+,
 * https://developer.chrome.com/docs/extensions/develop/concepts/service-workers/lifecycle): a cheap
 * call every 20 s keeps it running. Used while a bundle that IndexedDB refused waits for delivery in
 * memory, where an idle stop would lose it.
 */
export function keepAliveWhile(needed: () => Promise<boolean>, log: (message: string) => void, everyMs = 20_000): void {
  setInterval(() => {
    needed().then(
      (yes) => {
        if (yes) void browser.runtime.getPlatformInfo();
      },
      (error: unknown) => log(`[afr] keep-alive check failed: ${String(error)}`),
    );
  }, everyMs);
}

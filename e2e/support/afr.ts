import type { Worker } from 'playwright-core';
import type { AutomationApi } from '../../src/recorder/automation-api';

type Api = AutomationApi;

/** Calls `globalThis.afr[method](...args)` in the extension's service worker. */
export function afr<K extends keyof Api>(worker: Worker, method: K, ...args: Parameters<Api[K]>): Promise<Awaited<ReturnType<Api[K]>>> {
  return worker.evaluate(
    ([m, a]) => {
      const api = (globalThis as unknown as { afr: Record<string, (...x: unknown[]) => unknown> }).afr;
      return api[m]!(...a);
    },
    [method, args] as [string, unknown[]],
  ) as Promise<Awaited<ReturnType<Api[K]>>>;
}

/** Waits until a bundle that was not in `known` is listed, and returns its id. */
export async function waitForNewBundle(worker: Worker, known: readonly string[] = [], timeoutMs = 30_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const fresh = (await afr(worker, 'listBundles')).find((b) => !known.includes(b.id));
    if (fresh) return fresh.id;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no new bundle within ${timeoutMs} ms`);
}

/** Waits until the ring holds at least `frames` frames. */
export async function waitForFrames(worker: Worker, frames: number, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if ((await afr(worker, 'status')).frames >= frames) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`fewer than ${frames} frames after ${timeoutMs} ms: ${JSON.stringify(await afr(worker, 'status'))}`);
}

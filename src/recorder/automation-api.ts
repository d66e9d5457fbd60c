import type { BundleSummary, Status } from '../../schemas/api';
import type { Settings } from '../../schemas/settings';
import type { Recorder } from './recorder';

/**
 * The automation API on the service worker's global scope (`globalThis.afr`), for agents and tests.
 *
 * @example
 * // Playwright
 * const [worker] = context.serviceWorkers();
 * const bundleId = await worker.evaluate(() => afr.fail({ reason: 'assertion_failed', label: 'cart is empty' }));
 * const zipBase64 = await worker.evaluate((id) => afr.exportBundle(id), bundleId);
 */
export interface AutomationApi {
  /** Recording state: `{ recording, tabs, frames, bytes, fps, ... }`. */
  status(): Promise<Status>;
  /** Packages a bundle for the tab (default: the visible one); resolves to its id once it is stored. */
  fail(input: { tabId?: number; reason: string; label?: string }): Promise<string>;
  /** Adds an agent step to the timeline. */
  step(input: { tabId?: number; action: string; target?: string; outcome?: 'ok' | 'fail'; label?: string }): Promise<void>;
  /** Stored bundles, newest first. */
  listBundles(): Promise<BundleSummary[]>;
  /** The bundle zip as base64. */
  exportBundle(id: string): Promise<string>;
  deleteBundle(id: string): Promise<boolean>;
  /** Validates and applies a partial settings change; resolves to the full settings. */
  configure(patch: Partial<Settings>): Promise<Settings>;
  getSettings(): Promise<Settings>;
}

export function createAutomationApi(recorder: Recorder, ready: Promise<void>): AutomationApi {
  const after =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      await ready;
      return fn(...args);
    };
  return {
    status: after(() => recorder.status()),
    fail: after((input) => recorder.fail(input)),
    step: after((input) => recorder.step(input)),
    listBundles: after(() => recorder.listBundles()),
    exportBundle: after((id) => recorder.exportBundle(id)),
    deleteBundle: after((id) => recorder.deleteBundle(id)),
    configure: after((patch) => recorder.configure(patch)),
    getSettings: after(async () => recorder.settingsSnapshot()),
  };
}

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
  /** Adds an agent step to the timeline (`goal` and `reasoning` are masked like page text). */
  step(input: { tabId?: number; action: string; target?: string; outcome?: 'ok' | 'fail'; label?: string; goal?: string; reasoning?: string }): Promise<void>;
  /** Records an assertion; a failed one bundles (persistMode `on_fail`/`always`): resolves to that bundle's id, else null. */
  assert(input: { tabId?: number; label: string; passed: boolean; expected?: string; actual?: string; reasoning?: string }): Promise<string | null>;
  /** Puts a labelled moment on the timeline. */
  mark(input: { tabId?: number; label: string; reasoning?: string }): Promise<void>;
  /** Declares the agent's run; resolves to its id (the given `runId` or a generated one). */
  runStart(input?: { tabId?: number; runId?: string; agent?: string; agentVersion?: string; task?: string }): Promise<string>;
  /** Ends the run; with persistMode `always` the run is bundled and its id returned, else null. */
  runEnd(input?: { tabId?: number; outcome?: 'passed' | 'failed'; label?: string }): Promise<string | null>;
  /** Stored bundles, newest first. */
  listBundles(): Promise<BundleSummary[]>;
  /** The bundle zip as base64. */
  exportBundle(id: string): Promise<string>;
  deleteBundle(id: string): Promise<boolean>;
  /** Validates and applies a partial settings change; resolves to the full settings. */
  configure(patch: Partial<Settings>): Promise<Settings>;
  getSettings(): Promise<Settings>;
}

/** `ready` resolves once the worker has started (a start that failed is tried again by the next call). */
export function createAutomationApi(recorder: Recorder, ready: () => Promise<void>): AutomationApi {
  const after =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      await ready();
      return fn(...args);
    };
  return {
    status: after(() => recorder.status()),
    fail: after((input) => recorder.fail(input)),
    step: after((input) => recorder.step(input)),
    assert: after((input) => recorder.assert(input)),
    mark: after((input) => recorder.mark(input)),
    runStart: after((input) => recorder.runStart(input)),
    runEnd: after((input) => recorder.runEnd(input)),
    listBundles: after(() => recorder.listBundles()),
    exportBundle: after((id) => recorder.exportBundle(id)),
    deleteBundle: after((id) => recorder.deleteBundle(id)),
    configure: after((patch) => recorder.configure(patch)),
    getSettings: after(async () => recorder.settingsSnapshot()),
  };
}

import { settingsForReadBack } from '../settings/settings-store';
import type { ZodMiniType } from 'zod/mini';
import { apiInputSchema, type AgentCommand, type AgentCommandKind } from '../../schemas/agent';
import { WaitForBundleInputSchema, type BundleSummary, type Status, type WaitForBundleInput } from '../../schemas/api';
import type { ModelCallInput, ToolCallInput } from '../../schemas/agent-calls';
import type { Settings } from '../../schemas/settings';
import { parseInput } from './input-checks';
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
  /**
   * Records one of the agent's tool calls, masked (its input and output structurally: values under
   * secret keys withheld, every string through the detectors), tied to the current step and run.
   * Agent only: a page cannot post it.
   *
   * @example
   * await worker.evaluate(() => afr.toolCall({ tool: 'search', input: { q: 'red shoes' }, output: { hits: 3 }, status: 'ok', latencyMs: 412 }));
   */
  toolCall(input: ToolCallInput): Promise<void>;
  /**
   * Records one of the agent's model calls, masked (every message and the response), tied to the
   * current step and run; tokens and cost are totalled in the bundle's diagnostics. Agent only.
   *
   * @example
   * await worker.evaluate(() => afr.modelCall({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Find red shoes' }], response: 'search("red shoes")', tokensIn: 812, tokensOut: 40 }));
   */
  modelCall(input: ModelCallInput): Promise<void>;
  /** Stored bundles, newest first. */
  listBundles(): Promise<BundleSummary[]>;
  /** The bundle zip as base64. */
  exportBundle(id: string): Promise<string>;
  deleteBundle(id: string): Promise<boolean>;
  /**
   * Resolves to the first bundle stored after `since` (a time, or a bundle id; default: now), automatic
   * ones included, with the given `reason` and `trigger`; to null when none came within `timeoutMs`
   * (at most 60 000 ms a call).
   *
   * @example
   * const since = Date.now();
   * await page.click('#place-order'); // the shop answers HTTP 500: the recorder bundles on its own
   * const bundle = await worker.evaluate((since) => afr.waitForBundle({ since, reason: 'http_5xx', timeoutMs: 30_000 }), since);
   */
  waitForBundle(input: WaitForBundleInput): Promise<BundleSummary | null>;
  /** Validates and applies a partial settings change; resolves to the full settings. */
  configure(patch: Partial<Settings>): Promise<Settings>;
  getSettings(): Promise<Settings>;
}

/** What the automation API drives. */
export type AutomationTarget = Pick<Recorder, 'ports' | 'commands' | 'calls' | 'storedBundles' | 'bundleWaiters' | 'tabFor' | 'status'>;

/**
 * The automation API over the recorder. Every input is validated here and a bad one rejected with a
 * `RecorderInputError` naming the call; `ready` resolves once the worker has started (a start that
 * failed is tried again by the next call).
 */
export function createAutomationApi(recorder: AutomationTarget, ready: () => Promise<void>): AutomationApi {
  const after =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      await ready();
      return fn(...args);
    };
  /** Runs an agent command given through the API: validated, bound to a tab, then masked and recorded. */
  const command = async <K extends AgentCommandKind>(kind: K, input: unknown): Promise<string | null> => {
    const schema = apiInputSchema(kind) as unknown as ZodMiniType<{ tabId?: number } & Record<string, unknown>>;
    const { tabId, ...fields } = parseInput(schema, input, `afr.${kind}`);
    // Timed at the call: finding the default tab takes a moment.
    const ts = recorder.ports.clock.now();
    const tab = await recorder.tabFor(tabId);
    return recorder.commands.run({ kind, ...fields } as AgentCommand, { ...tab, ts, origin: 'agent' });
  };
  return {
    status: after(() => recorder.status()),
    fail: after(async (input) => {
      const id = await command('fail', input);
      if (!id) throw new Error('afr.fail: the failure was not bundled');
      return id;
    }),
    step: after(async (input) => void (await command('step', input))),
    assert: after((input) => command('assert', input)),
    mark: after(async (input) => void (await command('mark', input))),
    runStart: after(async (input = {}) => (await command('runStart', input))!),
    runEnd: after((input = {}) => command('runEnd', input)),
    toolCall: after(async (input) => void (await recorder.calls.toolCall(input))),
    modelCall: after(async (input) => void (await recorder.calls.modelCall(input))),
    listBundles: after(() => recorder.storedBundles.list()),
    exportBundle: after((id) => recorder.storedBundles.export(id)),
    deleteBundle: after((id) => recorder.storedBundles.delete(id)),
    waitForBundle: after((input) => recorder.bundleWaiters.wait(parseInput(WaitForBundleInputSchema, input, 'afr.waitForBundle'))),
    configure: after(async (patch) => settingsForReadBack(await recorder.ports.settingsStore.update(patch))),
    getSettings: after(async () => settingsForReadBack(recorder.ports.settingsStore.get())),
  };
}

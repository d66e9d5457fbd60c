import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describeEvaluateError, isTargetGoneError, RecorderCallError, RecorderTimeoutError, RecorderWorkerLostError } from './errors';
import { findRecorder, type FindOptions, type FoundRecorder } from './find-recorder';
import { nextBundle, sinceValue, type BundleQuery } from './next-bundle';
import type { AfrCall, WorkerSource } from './ports';
import type {
  AfrApi,
  AfrMethod,
  AssertOptions,
  BundleSummary,
  BundleUpload,
  FailOptions,
  MarkOptions,
  RecorderSettings,
  RecorderStatus,
  RunEndOptions,
  RunStartOptions,
  SettingsPatch,
  StepOptions,
  ToolCallOptions,
  ModelCallOptions,
  WaitDeliveredOptions,
  WaitForBundleOptions,
} from './types';

// Runs inside the service worker: serialised to source, so it must not close over anything.
const callAfr = ([method, args]: AfrCall): unknown => {
  const api = (globalThis as unknown as { afr?: Record<string, unknown> }).afr;
  if (typeof api !== 'object' || api === null) throw new Error('globalThis.afr is missing from the service worker');
  const fn = api[method];
  if (typeof fn !== 'function') throw new Error(`afr.${method} is not a function in this version of the extension`);
  return (fn as (...a: unknown[]) => unknown).apply(api, args);
};

type Result<M extends AfrMethod> = Awaited<ReturnType<AfrApi[M]>>;

/** `waitForBundle`'s default wait. */
const DEFAULT_BUNDLE_WAIT_MS = 30_000;
/** One wait inside the service worker: a worker Chrome restarts meanwhile costs at most this much of it. */
const WORKER_WAIT_MS = 20_000;
/** `waitDelivered`'s default wait: a bundle of a few megabytes over a slow link, with a retry or two. */
const DEFAULT_DELIVERY_WAIT_MS = 60_000;

/** How often a recorder without `afr.waitForBundle` is asked for its bundles. */
const POLL_MS = 500;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The extension is older than the client: `afr.<method>` does not exist there. */
const isMissingMethod = (error: unknown) => error instanceof RecorderCallError && /is not a function in this version of the extension/.test(error.message);

/**
 * A connection to the recorder's service worker. Every method calls `globalThis.afr.<method>` there.
 *
 * Chrome may stop or restart an extension's service worker. Before each call the client checks that the
 * browser still lists the worker and finds it again if not. If a call fails because the worker went away
 * during it, the read-only and repeat-safe calls (`status`, `settings`, `configure`, `bundles`,
 * `exportBundle`, `saveBundle`, `deleteBundle`) find the worker again and are retried once
 * (`waitForBundle` until its time is up); the others
 * (`runStart`, `runEnd`, `step`, `assert`, `mark`, `fail`) throw `RecorderWorkerLostError`, since the
 * recorder may already have applied them.
 */
export class RecorderClient {
  /** Use `connectRecorder` or `connectRecorderPuppeteer`. */
  constructor(
    private readonly source: WorkerSource,
    private found: FoundRecorder | null,
    private readonly timeoutMs: number,
    /** The extension's id (the host of `chrome-extension://<id>/…` pages). */
    readonly extensionId: string,
  ) {}

  /** Recording state: frames, bytes, fps, tabs, the current run… Retried after a worker restart. */
  status(): Promise<RecorderStatus> {
    return this.call('status', [], true);
  }

  /** The current settings. Retried after a worker restart. */
  settings(): Promise<RecorderSettings> {
    return this.call('getSettings', [], true);
  }

  /** Validates and applies a settings change; resolves to all settings. Retried after a worker restart. */
  configure(patch: SettingsPatch): Promise<RecorderSettings> {
    return this.call('configure', [patch], true);
  }

  /** Opens a run on the timeline; resolves to its id. Not retried. */
  runStart(options: RunStartOptions = {}): Promise<string> {
    return this.call('runStart', [options], false);
  }

  /** Closes the run; resolves to a bundle id when `persistMode: 'always'` bundled it, else null. Not retried. */
  runEnd(options: RunEndOptions = {}): Promise<string | null> {
    return this.call('runEnd', [options], false);
  }

  /** Adds an agent step to the timeline. Not retried. */
  step(options: StepOptions): Promise<void> {
    return this.call('step', [options], false);
  }

  /** Records a check; resolves to the bundle id when a failed check was bundled, else null. Not retried. */
  assert(options: AssertOptions): Promise<string | null> {
    return this.call('assert', [options], false);
  }

  /** Puts a named point on the timeline. Not retried. */
  mark(options: MarkOptions): Promise<void> {
    return this.call('mark', [options], false);
  }

  /**
   * Records one of the agent's tool calls (its input and output masked by the recorder, tied to the
   * current step and run). A call with status `error` or `timeout` is a `tool_error` signal. Not retried.
   * @example await rec.toolCall({ tool: 'search', input: { q: 'red shoes' }, output: { hits: 3 }, status: 'ok', latencyMs: 412 });
   */
  toolCall(options: ToolCallOptions): Promise<void> {
    return this.call('toolCall', [options], false);
  }

  /**
   * Records one of the agent's model calls (messages and response masked by the recorder). Not retried.
   * @example await rec.modelCall({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Find red shoes' }], response: 'search("red shoes")', tokensIn: 812, tokensOut: 40 });
   */
  modelCall(options: ModelCallOptions): Promise<void> {
    return this.call('modelCall', [options], false);
  }

  /**
   * `fn` with every call recorded as a tool call named `name`: its arguments as the input (the one
   * argument alone when there is one), what it returned (awaited) as the output, how long it took; a
   * throw is recorded as `error` (`timeout` for a `TimeoutError` or `AbortError`) and thrown on. A call
   * the recorder refuses (an output that is not JSON…) is passed to `onRecordError` and never breaks the tool.
   * @example const search = rec.wrapTool('search', async (q: string) => api.search(q));
   */
  wrapTool<A extends unknown[], R>(name: string, fn: (...args: A) => R | Promise<R>, options: { tabId?: number; onRecordError?: (error: unknown) => void } = {}): (...args: A) => Promise<R> {
    const record = (call: Omit<ToolCallOptions, 'tool' | 'tabId'>) =>
      this.toolCall({ ...(options.tabId === undefined ? {} : { tabId: options.tabId }), tool: name, ...call }).catch((error: unknown) => options.onRecordError?.(error));
    return async (...args: A): Promise<R> => {
      const input = args.length === 1 ? args[0] : args;
      const started = performance.now();
      try {
        const output = await fn(...args);
        await record({ input, ...(output === undefined ? {} : { output }), status: 'ok', latencyMs: Math.round(performance.now() - started) });
        return output;
      } catch (error) {
        const name = (error as { name?: unknown } | null)?.name;
        const status = name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'error';
        await record({ input, status, latencyMs: Math.round(performance.now() - started), error: String(error).slice(0, 16 * 1024) });
        throw error;
      }
    };
  }

  /** Declares a failure; resolves to the bundle id once the bundle is stored. Not retried. */
  fail(options: FailOptions): Promise<string> {
    return this.call('fail', [options], false);
  }

  /** Stored bundles, newest first. Retried after a worker restart. */
  bundles(): Promise<BundleSummary[]> {
    return this.call('listBundles', [], true);
  }

  /** The bundle's zip. Retried after a worker restart. */
  async exportBundle(id: string): Promise<Buffer> {
    const base64 = await this.call('exportBundle', [id], true);
    if (typeof base64 !== 'string') throw new RecorderCallError('exportBundle', `expected a base64 string, got ${typeof base64}`);
    return Buffer.from(base64, 'base64');
  }

  /**
   * Writes the bundle's zip to `target` (a path ending in `.zip`) or to `<target>/<id>.zip` (any
   * other path, taken as a directory); creates the directory. Resolves to the file written.
   * Retried after a worker restart.
   */
  async saveBundle(id: string, target: string): Promise<string> {
    const zip = await this.exportBundle(id);
    const file = target.toLowerCase().endsWith('.zip') ? target : path.join(target, `${id}.zip`);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, zip);
    return file;
  }

  /**
   * Resolves with the next bundle stored after `since` (default: now), automatic ones included (a
   * signal such as an exception, HTTP 5xx or crash, a page, the agent, the operator), optionally only
   * one with this `reason` or `trigger`; the oldest such bundle if several are stored already. Rejects
   * with `RecorderTimeoutError` after `timeoutMs` (default 30 s). The service worker wakes the wait as
   * the bundle is stored; with a recorder older than this client, the client asks for the list every
   * 500 ms instead. Survives a restart of the service worker.
   *
   * @example
   * const since = Date.now();
   * await page.click('#place-order'); // the shop answers HTTP 500: the recorder bundles on its own
   * const bundle = await rec.waitForBundle({ since, reason: 'http_5xx', timeoutMs: 30_000 });
   * await rec.saveBundle(bundle.id, 'bundles'); // bundles/<id>.zip
   */
  async waitForBundle(options: WaitForBundleOptions = {}): Promise<BundleSummary> {
    const timeoutMs = options.timeoutMs ?? DEFAULT_BUNDLE_WAIT_MS;
    let query: BundleQuery;
    try {
      query = { since: sinceValue(options.since ?? Date.now()) };
    } catch (error) {
      throw new RecorderCallError('waitForBundle', (error as Error).message);
    }
    if (options.reason !== undefined) query.reason = options.reason;
    if (options.trigger !== undefined) query.trigger = options.trigger;
    const deadline = Date.now() + timeoutMs;
    let polling = false;
    for (;;) {
      const left = Math.max(0, deadline - Date.now());
      let found: BundleSummary | null = null;
      if (!polling) {
        try {
          found = await this.call('waitForBundle', [{ ...query, timeoutMs: Math.min(left, WORKER_WAIT_MS) }], true);
        } catch (error) {
          if (isMissingMethod(error)) polling = true;
          else if (!(error instanceof RecorderWorkerLostError)) throw error;
          continue;
        }
      } else {
        try {
          found = nextBundle(await this.bundles(), query);
        } catch (error) {
          if (error instanceof RecorderWorkerLostError) continue;
          if (error instanceof RecorderCallError) throw error;
          throw new RecorderCallError('waitForBundle', (error as Error).message);
        }
        if (!found && left > 0) await sleep(Math.min(POLL_MS, left));
      }
      if (found) return found;
      if (Date.now() >= deadline) throw new RecorderTimeoutError('waitForBundle', timeoutMs, `no bundle${describeQuery(query)} was stored`);
    }
  }

  /**
   * Resolves with the bundle's delivery once the store confirmed it (`upload.state: 'delivered'`, its
   * `key` in the bucket). Rejects with `RecorderCallError` when the bundle is not stored, is not queued
   * for delivery (the `upload` setting is off, or `include: 'failures'` left it home) or failed for
   * good (wrong credentials, no such bucket: the store's words in the message), and with
   * `RecorderTimeoutError` after `timeoutMs` (default 60 s) while it is still pending (the store is down:
   * the recorder keeps retrying after the wait gives up). Survives a restart of the service worker.
   *
   * @example
   * const id = await rec.fail({ reason: 'checkout_failed' });
   * const { key } = await rec.waitDelivered(id); // ci/bundles/2026/11/25/<id>.zip
   */
  async waitDelivered(id: string, options: WaitDeliveredOptions = {}): Promise<BundleUpload & { key: string }> {
    const timeoutMs = options.timeoutMs ?? DEFAULT_DELIVERY_WAIT_MS;
    const deadline = Date.now() + timeoutMs;
    let last: BundleUpload | undefined;
    for (;;) {
      let listed: BundleSummary[] | null = null;
      try {
        listed = await this.bundles();
      } catch (error) {
        if (!(error instanceof RecorderWorkerLostError)) throw error;
      }
      if (listed) {
        // `fail` resolves once its bundle is stored: an id not listed is none of this recorder's, or deleted.
        const bundle = listed.find((b) => b.id === id);
        if (!bundle) throw new RecorderCallError('waitDelivered', `no stored bundle with id ${id}`);
        last = bundle.upload;
        if (!last) throw new RecorderCallError('waitDelivered', `bundle ${id} is not queued for delivery (is the upload setting on?)`);
        if (last.state === 'delivered' && last.key) return { ...last, key: last.key };
        if (last.state === 'skipped') throw new RecorderCallError('waitDelivered', `bundle ${id} is not delivered: upload.include leaves passing runs home`);
        if (last.state === 'failed') throw new RecorderCallError('waitDelivered', `bundle ${id} was not delivered: ${last.lastError ?? 'failed'}`);
      }
      if (Date.now() >= deadline) {
        throw new RecorderTimeoutError('waitDelivered', timeoutMs, `bundle ${id} was not delivered (${last ? `${last.state} after ${last.attempts} attempts${last.lastError ? `: ${last.lastError}` : ''}` : 'no answer'})`);
      }
      await sleep(Math.min(POLL_MS, Math.max(0, deadline - Date.now())));
    }
  }

  /**
   * Deletes a stored bundle; resolves to whether it existed. Retried after a worker restart (a retry of a
   * delete that went through before the worker went away resolves to false).
   */
  deleteBundle(id: string): Promise<boolean> {
    return this.call('deleteBundle', [id], true);
  }

  private async worker(): Promise<FoundRecorder> {
    if (this.found?.isAlive()) return this.found;
    this.found = await findRecorder(this.source, { timeoutMs: this.timeoutMs, extensionId: this.extensionId });
    return this.found;
  }

  private async call<M extends AfrMethod>(method: M, args: Parameters<AfrApi[M]>, repeatable: boolean): Promise<Result<M>> {
    for (let attempt = 1; ; attempt++) {
      const found = await this.worker();
      try {
        return (await found.worker.evaluate(callAfr, [method, args])) as Result<M>;
      } catch (error) {
        if (!isTargetGoneError(error)) throw new RecorderCallError(method, describeEvaluateError(error), { cause: error });
        if (this.found === found) this.found = null;
        if (!repeatable) throw new RecorderWorkerLostError(method, 'it may or may not have been applied, so it is not repeated', { cause: error });
        if (attempt > 1) throw new RecorderWorkerLostError(method, 'it went away again during the retry', { cause: error });
      }
    }
  }
}

function describeQuery({ since, reason, trigger }: BundleQuery): string {
  const parts = [reason !== undefined && `with reason ${reason}`, trigger !== undefined && `of trigger ${trigger}`].filter(Boolean);
  const start = typeof since === 'number' ? new Date(since).toISOString() : since;
  return `${parts.length ? ` ${parts.join(' ')}` : ''} after ${start}`;
}

/** Finds the recorder through `source` (waiting up to `timeoutMs`) and returns a client bound to it. */
export async function openRecorderClient(source: WorkerSource, { timeoutMs, extensionId }: FindOptions): Promise<RecorderClient> {
  const found = await findRecorder(source, { timeoutMs, extensionId });
  return new RecorderClient(source, found, timeoutMs, found.extensionId);
}

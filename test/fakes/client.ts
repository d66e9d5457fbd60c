import vm from 'node:vm';
import type { AfrCall, PlaywrightContextLike, PlaywrightWorkerLike, PuppeteerBrowserLike, PuppeteerTargetLike } from '../../src/client/ports';

export const RECORDER_ID = 'abcdefghijklmnopabcdefghijklmnop';
export const OTHER_ID = 'ponmlkjihgfedcbaponmlkjihgfedcba';
export const recorderUrl = (id = RECORDER_ID) => `chrome-extension://${id}/background.js`;

/** An in-memory `afr`: bundles are byte arrays, exported as base64 like the real one. */
export function fakeAfr(bundles: Record<string, Uint8Array> = {}) {
  const calls: AfrCall[] = [];
  const log =
    <R>(method: string, result: (...args: never[]) => R) =>
    async (...args: unknown[]) => {
      calls.push([method, args]);
      return result(...(args as never[]));
    };
  const api = {
    calls,
    status: log('status', () => ({ recording: true, frames: 3 })),
    runStart: log('runStart', (input: { runId?: string }) => input.runId ?? 'run-1'),
    runEnd: log('runEnd', () => null),
    step: log('step', () => undefined),
    mark: log('mark', () => undefined),
    toolCall: log('toolCall', (input: { output?: unknown }) => {
      if (typeof input.output === 'object' && input.output !== null && 'refuse' in input.output) throw new Error('afr.toolCall: output: not plain JSON');
      return undefined;
    }),
    modelCall: log('modelCall', () => undefined),
    assert: log('assert', (input: { passed: boolean }) => (input.passed ? null : 'afr-bundle-1')),
    fail: log('fail', () => 'afr-bundle-1'),
    listBundles: log('listBundles', () => Object.keys(bundles).map((id) => ({ id }))),
    exportBundle: log('exportBundle', (id: string) => {
      const bytes = bundles[id];
      if (!bytes) throw new Error(`no bundle ${id}`);
      return Buffer.from(bytes).toString('base64');
    }),
    deleteBundle: log('deleteBundle', (id: string) => id in bundles && delete bundles[id]),
    getSettings: log('getSettings', () => ({ bufferSeconds: 15 })),
    configure: log('configure', (patch: { bufferSeconds?: number }) => {
      if ((patch.bufferSeconds ?? 0) > 300) throw new Error('invalid settings: bufferSeconds: Too big: expected number to be <=300');
      return { bufferSeconds: patch.bufferSeconds ?? 15 };
    }),
  };
  return api;
}
export type FakeAfr = ReturnType<typeof fakeAfr>;

/**
 * A service worker that runs the client's function the way Playwright does: as source text in another
 * realm (a `node:vm` context whose global has `afr`), with the argument and result copied as JSON.
 */
export class FakeWorker implements PlaywrightWorkerLike {
  evaluations = 0;
  gone = false;
  /** Evaluations it answers before Chrome stops it. */
  lifespan = Infinity;

  constructor(
    private readonly href: string,
    public afr: object | undefined,
  ) {}

  url(): string {
    return this.href;
  }

  async evaluate(fn: (call: AfrCall) => unknown, call: AfrCall): Promise<unknown> {
    this.evaluations++;
    // Playwright's TargetClosedError, once Chrome stopped the worker.
    if (this.evaluations > this.lifespan) this.gone = true;
    if (this.gone) throw Object.assign(new Error('worker.evaluate: Target page, context or browser has been closed'), { name: 'TargetClosedError' });
    const realm = vm.createContext(this.afr ? { afr: this.afr } : {});
    try {
      const result: unknown = await vm.runInContext(`(${fn.toString()})(${JSON.stringify(call)})`, realm);
      return result === undefined ? undefined : JSON.parse(JSON.stringify(result));
    } catch (error) {
      // Playwright's shape: the library prefix, the in-worker error, its stack.
      throw new Error(`worker.evaluate: Error: ${(error as Error).message}\n    at <anonymous>:1:1`);
    }
  }
}

/** A Playwright `BrowserContext` with service workers that come, go and restart. */
export class FakeContext implements PlaywrightContextLike {
  workers: FakeWorker[] = [];
  closed = false;
  private waiters: ((worker: FakeWorker) => void)[] = [];

  serviceWorkers(): FakeWorker[] {
    return [...this.workers];
  }

  waitForEvent(_event: 'serviceworker', options?: { timeout?: number }): Promise<FakeWorker> {
    if (this.closed) return Promise.reject(new Error('browserContext.waitForEvent: Target page, context or browser has been closed'));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(Object.assign(new Error(`Timeout ${options?.timeout}ms exceeded while waiting for event "serviceworker"`), { name: 'TimeoutError' }));
      }, options?.timeout ?? 30_000);
      const waiter = (worker: FakeWorker) => {
        clearTimeout(timer);
        resolve(worker);
      };
      this.waiters.push(waiter);
    });
  }

  addWorker(worker: FakeWorker): FakeWorker {
    this.workers.push(worker);
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) waiter(worker);
    return worker;
  }

  /** Chrome stops the worker: it is gone and no longer listed. */
  stopWorker(worker: FakeWorker): void {
    worker.gone = true;
    this.workers = this.workers.filter((w) => w !== worker);
  }

  /** Chrome starts the worker again: a new `Worker` object over the same (persistent) `afr`. */
  restartWorker(worker: FakeWorker): FakeWorker {
    this.stopWorker(worker);
    return this.addWorker(new FakeWorker(worker.url(), worker.afr));
  }
}

export class FakeTarget implements PuppeteerTargetLike {
  constructor(
    private readonly kind: string,
    private readonly href: string,
    private readonly webWorker: FakeWorker | null,
  ) {}
  type(): string {
    return this.kind;
  }
  url(): string {
    return this.href;
  }
  async worker(): Promise<FakeWorker | null> {
    return this.webWorker;
  }
}

/** A Puppeteer `Browser` whose targets come and go. */
export class FakeBrowser implements PuppeteerBrowserLike {
  list: FakeTarget[] = [];
  private waiters: (() => boolean)[] = [];

  targets(): FakeTarget[] {
    return [...this.list];
  }

  waitForTarget(predicate: (target: PuppeteerTargetLike) => boolean, options?: { timeout?: number }): Promise<FakeTarget> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(Object.assign(new Error('Waiting for target failed: timeout'), { name: 'TimeoutError' })), options?.timeout ?? 30_000);
      const check = () => {
        const found = this.list.find(predicate);
        if (!found) return false;
        clearTimeout(timer);
        resolve(found);
        return true;
      };
      if (!check()) this.waiters.push(check);
    });
  }

  addTarget(target: FakeTarget): FakeTarget {
    this.list.push(target);
    this.waiters = this.waiters.filter((check) => !check());
    return target;
  }
}

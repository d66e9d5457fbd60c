/**
 * The few methods of Playwright and Puppeteer objects the client uses, as structural types: the client
 * depends on neither library, and a real `BrowserContext`, `Browser` or worker fits these shapes.
 */

/** What the client sends into the worker: `[method, args]` of an `afr` call. */
export type AfrCall = [method: string, args: unknown[]];

/**
 * A service worker that runs a function in its own scope: Playwright's `Worker`, Puppeteer's
 * `WebWorker`. The function is serialised to source, so it must not close over anything.
 */
export interface RecorderWorker {
  evaluate(fn: (call: AfrCall) => unknown, call: AfrCall): Promise<unknown>;
}

/** Playwright's `Worker` as far as the client needs it. */
export interface PlaywrightWorkerLike extends RecorderWorker {
  url(): string;
}

/** Playwright's `BrowserContext` (from `chromium.launchPersistentContext`) as far as the client needs it. */
export interface PlaywrightContextLike {
  serviceWorkers(): PlaywrightWorkerLike[];
  waitForEvent(event: 'serviceworker', options?: { timeout?: number }): Promise<PlaywrightWorkerLike>;
}

/** Puppeteer's `Target` as far as the client needs it. */
export interface PuppeteerTargetLike {
  type(): string;
  url(): string;
  worker(): Promise<RecorderWorker | null>;
}

/** Puppeteer's `Browser` as far as the client needs it. */
export interface PuppeteerBrowserLike {
  targets(): PuppeteerTargetLike[];
  waitForTarget(predicate: (target: PuppeteerTargetLike) => boolean, options?: { timeout?: number }): Promise<PuppeteerTargetLike>;
}

/** One service worker the browser reports, before the client knows whether it is the recorder. */
export interface WorkerCandidate {
  url: string;
  /** The worker to evaluate in; null when it is gone or is not a worker after all. */
  open(): Promise<RecorderWorker | null>;
  /** Whether the browser still lists this worker (false once Chrome stopped or restarted it). */
  isAlive(): boolean;
}

/** Where the client looks for the recorder: one adapter per automation library. */
export interface WorkerSource {
  /** The service workers running now. */
  candidates(): WorkerCandidate[];
  /**
   * Resolves when a new service worker may have started, or after `ms`, whichever is first;
   * rejects only when the browser itself is gone.
   */
  waitForNew(ms: number): Promise<void>;
}

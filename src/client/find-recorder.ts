import { RecorderNotFoundError } from './errors';
import type { AfrCall, RecorderWorker, WorkerSource } from './ports';

/** The recorder's service worker: `chrome-extension://<id>/background.js` (WXT's output name). */
const EXTENSION_WORKER_URL = /^chrome-extension:\/\/([^/]+)\/background\.js$/;

/** How often the search looks again at workers that are up but do not expose `afr` (yet). */
const RECHECK_MS = 250;

export interface FindOptions {
  timeoutMs: number;
  /** Only this extension's worker (set once the client has found it, so a restart finds the same one). */
  extensionId?: string;
}

export interface FoundRecorder {
  worker: RecorderWorker;
  extensionId: string;
  /** Whether the browser still lists the worker. */
  isAlive(): boolean;
}

// Runs inside the service worker: serialised to source, so it must not close over anything.
const probeAfr = ([method]: AfrCall): boolean => {
  const api = (globalThis as unknown as { afr?: Record<string, unknown> }).afr;
  return typeof api === 'object' && api !== null && typeof api[method] === 'function';
};

/** Resolves to `value`, or to `fallback` once `ms` have passed or the promise rejected. */
async function within<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms);
  });
  try {
    return await Promise.race([promise.catch(() => fallback), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Finds the service worker at `chrome-extension://<id>/background.js` that exposes `afr` (other
 * extensions may run a `background.js` too), waiting for it until `timeoutMs` have passed.
 */
export async function findRecorder(source: WorkerSource, { timeoutMs, extensionId }: FindOptions): Promise<FoundRecorder> {
  const deadline = Date.now() + timeoutMs;
  const seen = new Map<string, string>();
  for (;;) {
    for (const candidate of source.candidates()) {
      const match = EXTENSION_WORKER_URL.exec(candidate.url);
      if (!match?.[1] || (extensionId !== undefined && match[1] !== extensionId)) {
        seen.set(candidate.url, 'not the recorder');
        continue;
      }
      const left = Math.max(1, deadline - Date.now());
      // A worker that is still starting, or stuck, must not hold the search past its deadline.
      const worker = await within(candidate.open(), left, null);
      const verdict =
        worker === null
          ? 'gone'
          : await within(
              worker.evaluate(probeAfr, ['status', []]).then((has) => (has === true ? 'afr' : 'no globalThis.afr')),
              left,
              'not answering',
            );
      seen.set(candidate.url, verdict);
      if (worker && verdict === 'afr') return { worker, extensionId: match[1], isAlive: () => candidate.isAlive() };
    }
    const left = deadline - Date.now();
    if (left <= 0) throw new RecorderNotFoundError(notFoundMessage(timeoutMs, extensionId, seen));
    try {
      await source.waitForNew(Math.min(left, RECHECK_MS));
    } catch (error) {
      throw new RecorderNotFoundError(`Agent Flight Recorder not found: the browser is gone (${String(error)})`, { cause: error });
    }
  }
}

function notFoundMessage(timeoutMs: number, extensionId: string | undefined, seen: Map<string, string>): string {
  const where = `chrome-extension://${extensionId ?? '<id>'}/background.js`;
  const workers = [...seen].map(([url, verdict]) => `${url} (${verdict})`).join(', ') || 'none';
  return (
    `Agent Flight Recorder not found within ${timeoutMs} ms: no service worker at ${where} exposes globalThis.afr. ` +
    `Service workers seen: ${workers}. Launch Chromium (or Chrome for Testing; branded Chrome 137+ ignores ` +
    '--load-extension) with --disable-extensions-except=<dir> --load-extension=<dir>, <dir> being the built ' +
    'extension (.output/chrome-mv3), in a persistent context.'
  );
}

import { RecorderNotFoundError } from './errors';
import type { AfrCall, RecorderWorker, WorkerCandidate, WorkerSource } from './ports';

/** The recorder's service worker: `chrome-extension://<id>/background.js` (WXT's output name). */
const EXTENSION_WORKER_URL = /^chrome-extension:\/\/([^/]+)\/background\.js$/;

/** How often the search looks again at workers that are up but do not expose `afr` (yet). */
const RECHECK_MS = 250;

export interface FindOptions {
  timeoutMs: number;
  /** Only this extension's worker (set once the client has found it, so a restart finds the same one). */
  extensionId?: string;
  /** How long one round of probing waits for the workers to answer (default `PROBE_ROUND_MS`). */
  probeRoundMs?: number;
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
 * How long one round of probing waits for the workers to answer. A worker that does not answer (another
 * extension's stuck worker, one still starting) is asked again next round; meanwhile it must not keep
 * the search from seeing the recorder, listed after it or started later.
 */
const PROBE_ROUND_MS = 3_000;

/** Whether `candidate` is the recorder: a worker at `chrome-extension://<id>/background.js` exposing `afr`. */
async function probe(candidate: WorkerCandidate, ms: number): Promise<{ verdict: string; worker: RecorderWorker | null }> {
  const worker = await within(candidate.open(), ms, null);
  if (worker === null) return { verdict: 'gone', worker };
  const verdict = await within(
    worker.evaluate(probeAfr, ['status', []]).then((has) => (has === true ? 'afr' : 'no globalThis.afr')),
    ms,
    'not answering',
  );
  return { verdict, worker };
}

/**
 * Finds the service worker at `chrome-extension://<id>/background.js` that exposes `afr`, waiting for it
 * until `timeoutMs` have passed. Only service workers are candidates (never the extension's offscreen
 * document or pages), and only at that URL; other extensions may run a `background.js` too, so each is
 * asked whether it has `afr`, all at once: one that never answers does not hold up the others.
 */
export async function findRecorder(
  source: WorkerSource,
  { timeoutMs, extensionId, probeRoundMs = PROBE_ROUND_MS }: FindOptions,
): Promise<FoundRecorder> {
  const deadline = Date.now() + timeoutMs;
  const seen = new Map<string, string>();
  for (;;) {
    const probes: Promise<FoundRecorder | null>[] = [];
    for (const candidate of source.candidates()) {
      const match = EXTENSION_WORKER_URL.exec(candidate.url);
      if (!match?.[1] || (extensionId !== undefined && match[1] !== extensionId)) {
        seen.set(candidate.url, 'not the recorder');
        continue;
      }
      const id = match[1];
      const ms = Math.max(1, Math.min(probeRoundMs, deadline - Date.now()));
      probes.push(
        probe(candidate, ms).then(({ verdict, worker }) => {
          seen.set(candidate.url, verdict);
          return worker && verdict === 'afr' ? { worker, extensionId: id, isAlive: () => candidate.isAlive() } : null;
        }),
      );
    }
    const found = await firstFound(probes);
    if (found) return found;
    const left = deadline - Date.now();
    if (left <= 0) throw new RecorderNotFoundError(notFoundMessage(timeoutMs, extensionId, seen));
    try {
      await source.waitForNew(Math.min(left, RECHECK_MS));
    } catch (error) {
      throw new RecorderNotFoundError(`Agent Flight Recorder not found: the browser is gone (${String(error)})`, { cause: error });
    }
  }
}

/** The first probe to find the recorder, or null once every probe has answered without it. */
function firstFound(probes: Promise<FoundRecorder | null>[]): Promise<FoundRecorder | null> {
  return new Promise((resolve) => {
    let pending = probes.length;
    if (pending === 0) resolve(null);
    for (const p of probes) {
      void p.then((found) => {
        pending--;
        if (found) resolve(found);
        else if (pending === 0) resolve(null);
      });
    }
  });
}

function notFoundMessage(timeoutMs: number, extensionId: string | undefined, seen: Map<string, string>): string {
  const where = `chrome-extension://${extensionId ?? '<id>'}/background.js`;
  const workers = [...seen].map(([url, verdict]) => `${url} (${verdict})`).join(', ') || 'none';
  return (
    `Agent Flight Recorder not found within ${timeoutMs} ms: no service worker at ${where} exposes globalThis.afr. ` +
    `Service workers seen: ${workers}. Launch Chromium (or Chrome for Testing; branded Chrome 137+ ignores ` +
    '--load-extension) with --disable-extensions-except=<dir> --load-extension=<dir> --silent-debugger-extension-api ' +
    '(recorderLaunchArgs(<dir>) gives them; the last keeps the debugger infobar off the frames), <dir> being the built ' +
    'extension (.output/chrome-mv3), in a persistent context (launchPersistentContext, or browser.contexts()[0] ' +
    'after connectOverCDP): a context from browser.newContext() is incognito-like and the extension does not ' +
    'run in it (this is why Playwright MCP with isolated: true records nothing).'
  );
}

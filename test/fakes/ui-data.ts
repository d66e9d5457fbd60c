import type { BundleSummary, Status } from '../../schemas/api';
import type { UiApiMethod } from '../../schemas/messages';
import type { OperatorCall } from '../../src/ui/operator-client';
import type { UiPorts } from '../../src/ui/ports';

/** A plausible `status()` answer for tests, with `over` applied. */
export function makeStatus(over: Partial<Status> = {}): Status {
  return {
    recording: true,
    paused: false,
    tabs: [{ tabId: 7, windowId: 1, url: 'https://shop.test/cart', debugger: true, debuggerError: null, signals: 'debugger', source: 'screencast', pageRunId: null, recorded: true }],
    frames: 23,
    bytes: 4_404_019,
    fps: 1.82,
    oldestFrameAgeMs: 12_300,
    capturesOk: 120,
    captureErrors: 2,
    quotaErrors: 1,
    lastCaptureError: null,
    droppedFrames: 0,
    viewportCut: null,
    storage: { quotaErrors: 0, lastError: null, framesInMemory: 0 },
    steps: 40,
    bundles: 2,
    packaging: false,
    runId: 'run-1',
    run: { active: false, agent: null, agentVersion: null, task: null, startedAt: null },
    captureLevel: 'full',
    persistMode: 'on_fail',
    version: '0.1.0',
    pageLimits: { framesRefused: 0, runCommandsRefused: 0, commandsDropped: 0, stepsDropped: 0, errorsDropped: 0, bundlesRefused: 0 },
    scope: { mode: 'all', origins: [], recordedTabs: [7], agentTabs: [], chosenTabs: [] },
    downloads: { lastBundleId: null, lastPath: null, state: null, error: null, managedByDriver: false, hint: null },
    ...over,
  };
}

/** A bundle row for tests. */
export function makeBundle(over: Partial<BundleSummary> = {}): BundleSummary {
  return {
    id: 'afr-20261122T120000Z-abcdef',
    createdAt: '2026-11-22T12:00:00.000Z',
    reason: 'manual',
    label: null,
    tabId: 7,
    url: 'https://shop.test/cart',
    sizeBytes: 200 * 1024,
    downloadId: null,
    ...over,
  };
}

/** `UiPorts` over a table of fake API methods; calls are recorded as `[method, ...args]`. */
export function fakePorts(api: Partial<Record<UiApiMethod, (...args: unknown[]) => unknown>>, over: Partial<UiPorts> = {}) {
  const calls: unknown[][] = [];
  const call = (async (method: UiApiMethod, ...args: unknown[]) => {
    calls.push([method, ...args]);
    const fn = api[method];
    if (!fn) throw new Error(`${method} is not faked`);
    return fn(...args);
  }) as OperatorCall;
  const ports: UiPorts = {
    call,
    viewerUrl: (id) => `chrome-extension://afr/viewer.html?id=${id}`,
    pageUrl: (page) => `chrome-extension://afr/${page}`,
    listWebTabs: async () => [{ tabId: 7, url: 'https://shop.test/cart', title: 'Cart' }],
    visibleWebTab: async () => ({ tabId: 7, url: 'https://shop.test/cart', title: 'Cart' }),
    confirm: () => true,
    now: () => Date.parse('2026-11-22T12:00:30.000Z'),
    ...over,
  };
  return { ports, calls };
}

/** Lets pending promise callbacks (fake API answers, re-renders) run. */
export async function settle(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((r) => setTimeout(r, 0));
}

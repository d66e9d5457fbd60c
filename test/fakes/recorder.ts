import { vi } from 'vitest';
import { MemoryBundleStore } from '../../src/bundle/memory-bundle-store';
import { autoDownloadSink } from '../../src/bundle/download-sink';
import { retentionSink } from '../../src/bundle/retention-sink';
import type { Capturer } from '../../src/capture/ports';
import { createAutomationApi } from '../../src/recorder/automation-api';
import { createOperatorApi } from '../../src/recorder/operator-api';
import type { RecorderPorts } from '../../src/recorder/ports';
import { Recorder } from '../../src/recorder/recorder';
import { FrameRing } from '../../src/ring/frame-ring';
import { MemoryFrameStore } from '../../src/ring/memory-frame-store';
import { MemoryKeyValueStore, SettingsStore } from '../../src/settings/settings-store';
import { StepLog } from '../../src/steps/step-log';
import { MemoryStepStore } from './memory-step-store';

/** The recorder tests' time zero. */
export const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);

/** A message's sender: the top frame of tab 7. */
export const origin = { tabId: 7, frameId: 0 };

/** A `step/observed` message of tab 7's page. */
export const stepMessage = (over: Record<string, unknown> = {}) => ({
  type: 'step/observed', ts: T0, url: 'https://shop.test/cart', kind: 'input', action: 'type',
  target: { tag: 'input', selector: '#email' }, value: 'hello', value_redacted: false, outcome: null, label: null,
  ...over,
});

/** A CDP `Runtime.exceptionThrown` event's parameters. */
export const cdpException = (description: string, over: Record<string, unknown> = {}) => ({ exceptionDetails: { text: 'Uncaught', exception: { description } }, ...over });

/** A fake screencast port whose calls the test can count. */
export const screencastPort = () => ({
  attachedTabs: () => [7],
  start: vi.fn(async () => {}),
  stop: vi.fn(async () => {}),
  ack: vi.fn(async () => {}),
  screenshot: vi.fn(async () => ''),
});

/**
 * A recorder on in-memory stores with one visible tab (7), its automation API (`afr`) and operator
 * API, wired as the service worker wires them (retention and auto-download sinks).
 */
export function setupRecorder(over: Partial<RecorderPorts> = {}) {
  const clock = { t: T0, now() { return this.t; } };
  const attached = new Set<number>();
  const capturer: Capturer = {
    listTargets: async () => [{ tabId: 7, windowId: 1, url: 'https://shop.test/cart' }],
    capture: async () => ({ jpeg: new Uint8Array([0xff, 0xd8, 1]), width: 1280, height: 720 }),
  };
  const log = vi.fn();
  const bundles = over.bundles ?? new MemoryBundleStore();
  const download = over.download ?? vi.fn(async () => 1);
  const ports: RecorderPorts = {
    clock,
    ring: new FrameRing(new MemoryFrameStore(), clock, { maxAgeMs: 15_000, maxBytes: 1 << 20 }),
    stepLog: new StepLog(new MemoryStepStore(), clock, { maxSteps: 100, maxAgeMs: 60_000 }),
    bundles,
    settingsStore: new SettingsStore(new MemoryKeyValueStore(), log),
    capturer,
    sessionRunId: () => 'run-test',
    sessionStore: new MemoryKeyValueStore(),
    previewRedaction: async () => ({ matches: [], total: 0, problems: [] }),
    sleep: async () => {},
    extension: { name: 'Agent Flight Recorder', version: '0.1.0' },
    snapshot: async () => ({ ok: false, error: 'no page in unit tests' }),
    encodeClip: async () => ({ ok: false, error: 'no encoder in unit tests' }),
    download,
    sinks: [retentionSink(bundles, clock), autoDownloadSink(bundles, download)],
    debuggerState: (tabId) => ({ attached: tabId !== null && attached.has(tabId), error: null }),
    watchTab: vi.fn(),
    log,
    ...over,
  };
  const recorder = new Recorder(ports);
  const ready = () => recorder.start();
  return { recorder, ports, clock, attached, log, download, afr: createAutomationApi(recorder, ready), operator: createOperatorApi(recorder) };
}

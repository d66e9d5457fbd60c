import { defineBackground } from 'wxt/utils/define-background';
import { Recorder } from '../src/recorder/recorder';
import { createAutomationApi } from '../src/recorder/automation-api';
import { FrameRing } from '../src/ring/frame-ring';
import { systemClock } from '../src/ring/ports';
import { Timeline } from '../src/steps/timeline';
import { SettingsStore } from '../src/settings/settings-store';
import { DEFAULT_SETTINGS } from '../schemas/settings';
import { IdbFrameStore } from '../src/platform/idb-frame-store';
import { IdbStepStore } from '../src/platform/idb-step-store';
import { IdbBundleStore } from '../src/platform/idb-bundle-store';
import { ChromeStorage } from '../src/platform/chrome-storage';
import { VisibleTabCapturer, isCapturableUrl } from '../src/platform/visible-tab-capturer';
import { DebuggerPort } from '../src/platform/debugger-port';
import { requestSnapshot } from '../src/platform/snapshot-client';
import { downloadBundle } from '../src/platform/downloads';
import { encodeClipOffscreen, warmUpClipEncoder } from '../src/platform/clip-port';
import { loadRunId } from '../src/platform/run-id';

export default defineBackground(() => {
  const log = (message: string) => console.warn(message);
  let runId = 'run-unknown';

  const debuggerPort = new DebuggerPort({
    onException: (tabId, details) => {
      void chrome.tabs
        .get(tabId)
        .then((tab) => recorder.handleException(tabId, tab.url ?? null, details))
        .catch((error: unknown) => log(`[afr] exception signal of tab ${tabId} lost: ${String(error)}`));
    },
    onDetached: (tabId, reason) => log(`[afr] debugger detached from tab ${tabId} (${reason}); using page-level signals`),
  });
  const watchTab = (tabId: number) => void debuggerPort.ensureAttached(tabId);

  // The debugger's callbacks use `recorder`; they only run once events arrive, after this line.
  const recorder = new Recorder({
    clock: systemClock,
    ring: new FrameRing(new IdbFrameStore(), systemClock, { maxAgeMs: DEFAULT_SETTINGS.bufferSeconds * 1000, maxBytes: DEFAULT_SETTINGS.maxBufferBytes }),
    timeline: new Timeline(new IdbStepStore(), systemClock, { maxSteps: 2_000, maxAgeMs: 60_000 }),
    bundles: new IdbBundleStore(),
    settingsStore: new SettingsStore(new ChromeStorage(), log),
    capturer: new VisibleTabCapturer(),
    runId: () => runId,
    extension: { name: chrome.runtime.getManifest().name, version: chrome.runtime.getManifest().version },
    snapshot: (tabId) => requestSnapshot(tabId),
    encodeClip: encodeClipOffscreen,
    download: downloadBundle,
    debuggerState: (tabId) => debuggerPort.stateOf(tabId),
    watchTab,
    log,
  });

  // Listeners are registered synchronously so events that woke the worker are not missed.
  chrome.runtime.onMessage.addListener((message: unknown, sender) => {
    if (!sender.tab || sender.id !== chrome.runtime.id) return false;
    void recorder
      .handleMessage(message, { tabId: sender.tab.id ?? null, frameId: sender.frameId ?? null, tabUrl: sender.tab.url ?? null })
      .catch((error: unknown) => log(`[afr] message handling failed: ${String(error)}`));
    return false;
  });
  chrome.webRequest.onCompleted.addListener(
    (details) => void recorder.handleDocumentResponse(details.tabId, details.url, details.statusCode, details.statusLine ?? null),
    { urls: ['<all_urls>'], types: ['main_frame'] },
  );
  chrome.tabs.onUpdated.addListener((tabId, change, tab) => {
    if (change.status === 'loading' && isCapturableUrl(tab.url)) watchTab(tabId);
  });
  chrome.tabs.onRemoved.addListener((tabId) => debuggerPort.forget(tabId));

  const ready = (async () => {
    runId = await loadRunId();
    await recorder.start();
    for (const tab of await chrome.tabs.query({})) if (tab.id !== undefined && isCapturableUrl(tab.url)) watchTab(tab.id);
    void warmUpClipEncoder().catch((error: unknown) => log(`[afr] clip encoder warm-up failed: ${String(error)}`));
  })();
  ready.catch((error: unknown) => console.error('[afr] recorder failed to start', error));

  (globalThis as unknown as { afr: unknown }).afr = createAutomationApi(recorder, ready);
});

import { defineBackground } from 'wxt/utils/define-background';
import { browser, type Browser } from 'wxt/browser';
import viewerScript from 'virtual:afr-viewer-script';
import { Recorder } from '../src/recorder/recorder';
import { CONTENT_PORT_AGAIN_NAME, CONTENT_PORT_NAME } from '../schemas/content-port';
import { createAutomationApi } from '../src/recorder/automation-api';
import { describeStorageError, FrameRing, isQuotaExceeded } from '../src/ring/frame-ring';
import { MemoryBundleStore } from '../src/bundle/memory-bundle-store';
import { OverflowBundleStore, OverflowOutboxStore } from '../src/platform/overflow-stores';
import { SpillOutbox } from '../src/upload/spill-outbox';
import { SpillBundleStore } from '../src/bundle/spill-bundle-store';
import { systemClock } from '../src/shared/clock';
import { StepLog } from '../src/steps/step-log';
import { SettingsStore } from '../src/settings/settings-store';
import { DEFAULT_SETTINGS } from '../schemas/settings';
import { IdbFrameStore } from '../src/platform/idb-frame-store';
import { IdbStepStore } from '../src/platform/idb-step-store';
import { IdbBundleStore } from '../src/platform/idb-bundle-store';
import { ChromeStorage } from '../src/platform/chrome-storage';
import { TabZoom } from '../src/platform/tab-zoom';
import { VisibleTabCapturer, isCapturableUrl } from '../src/platform/visible-tab-capturer';
import { DebuggerPort } from '../src/platform/debugger-port';
import { requestSnapshot } from '../src/platform/snapshot-client';
import { requestRegionsReport, syncRegionsReport } from '../src/platform/redaction-report-client';
import { downloadBundle, settledDownload } from '../src/platform/downloads';
import { DownloadCheck } from '../src/bundle/download-check';
import { encodeClipOffscreen, warmUpClipEncoder } from '../src/platform/clip-port';
import { loadRunId } from '../src/platform/run-id';
import type { TextMasker } from '../src/redact/mask-text';
import { redactUrl } from '../src/redact/redact-url';
import { requestRedactionPreview } from '../src/platform/redaction-preview-client';
import { createOperatorApi, handleUiCall } from '../src/recorder/operator-api';
import { TabPages } from '../src/recorder/tab-pages';
import { retentionSink } from '../src/bundle/retention-sink';
import { autoDownloadSink } from '../src/bundle/download-sink';
import { onceUntilFailure } from '../src/shared/once-until-failure';
import { UiApiMessageSchema } from '../schemas/messages';
import { maskJpeg } from '../src/platform/frame-masker';
import { IdbOutboxStore } from '../src/platform/idb-outbox-store';
import { Delivery } from '../src/upload/delivery';
import { activeTargetOf } from '../src/upload/active-target';
import { deliveryTimer, deliveryView } from '../src/upload/delivery-view';
import { uploadSink } from '../src/upload/upload-sink';
import { chromeManagedPolicy, onManagedPolicyChanged } from '../src/platform/managed-policy';
import { keepAliveWhile } from '../src/platform/keep-alive';
import { Toolbar } from '../src/toolbar/toolbar';
import { chromeActionBadge } from '../src/platform/action-badge';
import { TimelineKeeper } from '../src/timeline/store/timeline-keeper';
import { IdbTimelineStorage } from '../src/platform/idb-timeline-storage';
import { requestTimelineCheckpoint } from '../src/platform/timeline-checkpoint-client';

export default defineBackground(() => {
  const log = (message: string) => console.warn(message);
  let runId = 'run-unknown';

  // The toolbar badge follows the recorder's state; it is told of changes, never polls.
  const toolbar = new Toolbar({ read: () => recorder.status(), badge: chromeActionBadge, log });
  // Each tab's page as the browser last told it (redacted), for the signals that do not carry a URL,
  // and whether the debugger may attach to it (chrome:// pages and the like refuse it).
  const tabPages: TabPages = new TabPages({ redact: (url): string => redactUrl(url, recorder.masker), isWebPage: isCapturableUrl });
  const debuggerPort = new DebuggerPort({
    onEvent: (tabId, method, params) => {
      void recorder
        .handleCdpEvent(tabId, method, params, () => tabPages.url(tabId))
        .catch((error: unknown) => log(`[afr] ${method} of tab ${tabId} lost: ${String(error)}`));
    },
    onAttached: (tabId) => void recorder.handleDebuggerAttached(tabId).catch((error: unknown) => log(`[afr] screencast start failed: ${String(error)}`)),
    onDetached: (tabId, reason) => {
      recorder.handleDebuggerDetached(tabId);
      log(`[afr] debugger detached from tab ${tabId} (${reason}); using page-level signals and captureVisibleTab`);
    },
  });
  // Only recorded tabs (the `scope` setting) get a debugger session.
  const watchTab = (tabId: number) => {
    if (tabPages.isWebPage(tabId) !== false && recorder.recordsTab(tabId)) void debuggerPort.ensureAttached(tabId);
  };
  const unwatchTab = (tabId: number) => void debuggerPort.detach(tabId).catch((error: unknown) => log(`[afr] debugger of tab ${tabId} not detached: ${String(error)}`));
  /**
   * A tab's page as the browser tells it (`asOf`: a start-up snapshot's mark, see `TabPages`): the
   * scope reads its origin. Resolves whether the tab shows a web page it did not before.
   */
  const seeTab = (tabId: number, url: string | undefined, asOf?: number): boolean => {
    const change = tabPages.see(tabId, url, asOf);
    if (change.taken) recorder.handleTabSeen(tabId, url!);
    return change.becameWebPage;
  };
  const activeTab = async (): Promise<number | null> => {
    const [focused] = await browser.tabs.query({ active: true, lastFocusedWindow: true, windowType: 'normal' });
    return focused?.id ?? (await browser.tabs.query({ active: true, windowType: 'normal' }))[0]?.id ?? null;
  };
  const tabZoom = new TabZoom(log);

  // Every bundle download is checked once it ends: under Playwright the file lands in the driver's
  // temporary folder, which `status().downloads` and a warning say.
  // A download that ended may have failed: the badge says so (it reads the verdict a moment later).
  const downloads = new DownloadCheck((id) => settledDownload(id).finally(() => toolbar.refresh()), log);
  const download = downloads.checked(downloadBundle);
  // A bundle IndexedDB refuses (out of quota) goes to chrome.storage.local, which outlives the worker,
  // or else stays in memory (delivered first, the worker kept from its idle stop meanwhile).
  const bundles = new SpillBundleStore(
    new IdbBundleStore(),
    (error, where) =>
      log(
        where === 'overflow'
          ? `[afr] bundle kept in extension storage, IndexedDB refused it: ${describeStorageError(error)}`
          : `[afr] bundle kept in memory only, IndexedDB refused it: ${describeStorageError(error)}`,
      ),
    new MemoryBundleStore(),
    new OverflowBundleStore(),
  );
  // Settings an administrator sets by enterprise policy win over the user's and are read-only.
  const settingsStore = new SettingsStore(new ChromeStorage(), log, chromeManagedPolicy);
  // Delivery to object storage: a durable outbox in IndexedDB, passes run when a bundle is queued, when
  // a retry is due, and on the periodic alarm (a stopped worker resumes where it was).
  const outbox = new SpillOutbox(new IdbOutboxStore(), new OverflowOutboxStore(), isQuotaExceeded, (where, error) =>
    log(`[afr] upload entry kept in ${where === 'overflow' ? 'extension storage' : 'memory only'}, IndexedDB refused it: ${describeStorageError(error)}`),
  );
  const deliveryFetch = (input: Request | string, init?: RequestInit) => fetch(input, { ...init, credentials: 'omit', cache: 'no-store' });
  const manifest = browser.runtime.getManifest();
  const browserVersion = /Chrome\/([\d.]+)/.exec(navigator.userAgent)?.[1];
  const origin = () => ({ extensionVersion: manifest.version, browserVersion: browserVersion ? `Chromium ${browserVersion}` : navigator.userAgent });
  const inMemoryOnly = (id: string) => bundles.isInMemory(id);
  const delivery = new Delivery({
    outbox,
    readBundle: (id) => bundles.read(id),
    activeTarget: () => activeTargetOf(settingsStore.get().upload, deliveryFetch),
    origin,
    inMemoryOnly,
    clock: systemClock,
    random: Math.random,
    log,
  });
  const deliveries = deliveryTimer(() => delivery.run().finally(() => toolbar.refresh()), systemClock, log);
  const deliveryState = deliveryView(outbox, bundles, systemClock, () => settingsStore.managedKeys().has('upload'), deliveryFetch, inMemoryOnly);
  // A bundle IndexedDB refused waits for delivery in memory: the worker does not take its idle stop
  // until it is delivered (or fails for good).
  keepAliveWhile(async () => (await outbox.list()).some((e) => (e.state === 'pending' || e.state === 'uploading') && inMemoryOnly(e.bundleId)), log);
  // Each tab's DOM timeline (capture level `trace` and up), under the window and its own byte cap.
  const timeline = new TimelineKeeper(
    new IdbTimelineStorage(),
    systemClock,
    () => ({ windowMs: settingsStore.get().bufferSeconds * 1000, maxBytes: settingsStore.get().maxTimelineBytes }),
    log,
  );
  // The debugger's callbacks use `recorder`; they only run once events arrive, after this line.
  const recorder = new Recorder({
    clock: systemClock,
    ring: new FrameRing(new IdbFrameStore(), systemClock, { maxAgeMs: DEFAULT_SETTINGS.bufferSeconds * 1000, maxBytes: DEFAULT_SETTINGS.maxBufferBytes }),
    stepLog: new StepLog(new IdbStepStore(), systemClock, { maxSteps: 2_000, maxAgeMs: 60_000 }, (error) =>
      log(`[afr] steps kept in memory only, IndexedDB refused them: ${describeStorageError(error)}`),
    ),
    bundles,
    settingsStore,
    capturer: new VisibleTabCapturer((): TextMasker => recorder.masker),
    sessionRunId: () => runId,
    sessionStore: new ChromeStorage(browser.storage.session),
    previewRedaction: requestRedactionPreview,
    currentTabUrl: (tabId) => tabPages.url(tabId),
    maskFrame: maskJpeg,
    zoomOf: (tabId) => tabZoom.of(tabId),
    screencast: {
      attachedTabs: () => debuggerPort.attachedTabs(),
      start: (tabId, options) => debuggerPort.startScreencast(tabId, options),
      stop: (tabId) => debuggerPort.stopScreencast(tabId),
      ack: (tabId, sessionId) => debuggerPort.ackScreencastFrame(tabId, sessionId),
      screenshot: (tabId, quality) => debuggerPort.captureScreenshot(tabId, quality),
    },
    extension: { name: browser.runtime.getManifest().name, version: browser.runtime.getManifest().version },
    snapshot: (tabId) => requestSnapshot(tabId),
    timeline,
    timelineCheckpoint: requestTimelineCheckpoint,
    requestRegions: requestRegionsReport,
    syncRegions: syncRegionsReport,
    encodeClip: encodeClipOffscreen,
    viewerScript,
    download,
    downloadsStatus: () => downloads.status(),
    // Where a stored bundle goes next, one after the other: a new destination is one more sink here.
    sinks: [
      uploadSink({
        outbox,
        clock: systemClock,
        inMemoryOnly,
        kick: () => {
          toolbar.refresh();
          deliveries.kick();
        },
      }),
      retentionSink(bundles, systemClock, deliveryState),
      autoDownloadSink(bundles, download),
    ],
    delivery: deliveryState,
    networkBodies: { responseBody: (tabId, requestId) => debuggerPort.responseBody(tabId, requestId) },
    debuggerState: (tabId) => debuggerPort.stateOf(tabId),
    stateChanged: () => toolbar.refresh(),
    watchTab,
    unwatchTab,
    activeTab,
    log,
  });

  const operator = createOperatorApi(recorder);

  // Listeners are registered synchronously so events that woke the worker are not missed.
  const extensionOrigin = browser.runtime.getURL('');
  browser.runtime.onMessage.addListener((message: unknown, sender: Browser.runtime.MessageSender, sendResponse: (answer: unknown) => void) => {
    if (sender.id !== browser.runtime.id || !sender.url?.startsWith(extensionOrigin)) return false;
    // Operator pages (popup, options, library, viewer); other extension messages are not ours to answer.
    const call = UiApiMessageSchema.safeParse(message);
    if (!call.success) return false;
    // Chrome's onMessage cannot take a promise (https://crbug.com/1185241): `true` keeps the channel
    // open until `sendResponse`. handleUiCall never rejects: a failed call answers `{ ok: false, error }`.
    void handleUiCall(operator, ready, call.data).then(sendResponse);
    return true;
  });
  // Content scripts: one port per frame, every message validated by the recorder.
  browser.runtime.onConnect.addListener((port) => {
    const tab = port.sender?.tab;
    const again = port.name === CONTENT_PORT_AGAIN_NAME;
    if ((port.name !== CONTENT_PORT_NAME && !again) || port.sender?.id !== browser.runtime.id || !tab) return port.disconnect();
    // The sender's frame and origin come from the browser, not from the page: they decide whether
    // the frame's page commands speak for the page (only the top frame's, or an allow-listed origin's).
    const origin = { tabId: tab.id ?? null, frameId: port.sender?.frameId ?? null, frameOrigin: port.sender?.origin ?? null };
    // A document loaded in a frame (a prerendered page's main frame is none of the visible page's).
    if (origin.tabId !== null && origin.frameId === 0) seeTab(origin.tabId, tab.url);
    if (origin.tabId !== null && origin.frameId !== null && port.sender?.documentLifecycle !== 'prerender') {
      recorder.handleFrameConnected(origin.tabId, origin.frameId, port.sender?.documentId ?? null, again);
    }
    port.onMessage.addListener((message: unknown) => {
      void recorder.handleMessage(message, origin).catch((error: unknown) => log(`[afr] message handling failed: ${String(error)}`));
    });
  });
  // HTTP errors and failed loads of tabs without a debugger session (the recorder ignores the rest).
  const onRequest = (d: Pick<Browser.webRequest.OnCompletedDetails, 'tabId' | 'url' | 'method' | 'type'>, statusCode: number | null, error: string | null) => {
    if ((statusCode !== null && statusCode < 400) || d.tabId < 0) return;
    void recorder
      .handleWebRequest({ tabId: d.tabId, url: d.url, method: d.method, type: d.type, statusCode, error })
      .catch((e: unknown) => log(`[afr] request of tab ${d.tabId} lost: ${String(e)}`));
  };
  browser.webRequest.onCompleted.addListener((d) => onRequest(d, d.statusCode, null), { urls: ['<all_urls>'] });
  browser.webRequest.onErrorOccurred.addListener((d) => onRequest(d, null, d.error), { urls: ['<all_urls>'] });
  browser.tabs.onCreated.addListener((tab) => {
    if (tab.id === undefined) return;
    const { id, openerTabId } = tab;
    // The agent's run must be known first: a tab created while it is active is the agent's.
    void ready()
      .then(() => recorder.handleTabCreated(id, openerTabId ?? null, tab.pendingUrl || tab.url || null))
      .catch((error: unknown) => log(`[afr] new tab ${id} not placed in the scope: ${String(error)}`));
  });
  browser.tabs.onUpdated.addListener((tabId, change, tab) => {
    // A page given on Chromium's command line may commit after the worker started, and its `loading`
    // may have come first: its first web page (of any update) opens its debugger session.
    const firstWebPage = seeTab(tabId, tab.url);
    if (change.status === 'loading') recorder.handleNavigation(tabId);
    if ((change.status === 'loading' || firstWebPage) && isCapturableUrl(tab.url)) watchTab(tabId);
    // Chrome drops a tab's own badge once the new document commits; set it again then and once loaded.
    if (change.url !== undefined || change.status === 'complete') toolbar.tabNavigated(tabId);
  });
  // A backstop wake-up: Chrome stops an idle worker; any event restarts it and the start-up below
  // resumes capture at once. The alarm (30 s, the shortest Chrome allows) covers a quiet browser.
  void browser.alarms.create('afr-keepalive', { periodInMinutes: 0.5 });
  browser.alarms.onAlarm.addListener(() => void ready().then(deliveries.kick, () => undefined));
  onManagedPolicyChanged(() => {
    void ready()
      .then(() => settingsStore.reloadPolicy())
      .then(() => deliveries.kick())
      .catch((error: unknown) => log(`[afr] enterprise policy change not applied: ${String(error)}`));
  });
  browser.tabs.onRemoved.addListener((tabId) => {
    tabPages.forget(tabId);
    debuggerPort.forget(tabId);
    toolbar.forgetTab(tabId);
    recorder.forgetTab(tabId);
  });

  const startedAt = Date.now();
  // Read once: a start-up tried again must not take this browser session for an old one.
  const session = onceUntilFailure(loadRunId);
  const startUp = async () => {
    const { runId: id, newBrowserSession } = await session();
    runId = id;
    await recorder.start();
    // What tabs.onUpdated tells while the query is answered is newer than its answer (a command-line
    // page committing now): the answer does not overwrite it.
    const asOf = tabPages.mark();
    const tabs = await browser.tabs.query({});
    // Tab ids are given again in a new browser session: frames from an earlier one are no open tab's.
    const open = newBrowserSession ? [] : tabs.flatMap((tab) => (tab.id === undefined ? [] : [tab.id]));
    await recorder.keepTabs(open, startedAt).catch((error: unknown) => log(`[afr] frames of closed tabs not evicted: ${String(error)}`));
    for (const tab of tabs) if (tab.id !== undefined) seeTab(tab.id, tab.url, asOf);
    await recorder.keepScopeTabs(tabs.flatMap((tab) => (tab.id === undefined ? [] : [tab.id])));
    for (const tab of tabs) {
      // A tab without a page yet (its first URL not committed) is watched when it commits one.
      if (tab.id === undefined || tabPages.isWebPage(tab.id) !== true) continue;
      // A session an earlier worker left on a tab now outside the scope is closed.
      if (!recorder.recordsTab(tab.id)) {
        unwatchTab(tab.id);
        continue;
      }
      watchTab(tab.id);
      // A restarted worker knows no page's regions: until a page reports, its frames are dropped.
      requestRegionsReport(tab.id);
    }
    void warmUpClipEncoder().catch((error: unknown) => log(`[afr] clip encoder warm-up failed: ${String(error)}`));
    // Bundles a stopped worker left on their way resume now.
    deliveries.kick();
  };
  /** The worker's start-up; one that failed (storage refused) is tried again by the next call or alarm. */
  const ready = onceUntilFailure(() =>
    startUp().catch((error: unknown) => {
      console.error('[afr] recorder failed to start', error);
      throw error;
    }),
  );
  void ready().catch(() => undefined);

  (globalThis as unknown as { afr: unknown }).afr = createAutomationApi(recorder, ready);
});

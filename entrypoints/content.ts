import { defineContentScript } from 'wxt/utils/define-content-script';
import { browser, type Browser } from 'wxt/browser';
import { ToContentMessageSchema } from '../schemas/content-messages';
import type { SnapshotCaptureResult, ToBackgroundMessage } from '../schemas/messages';
import { openBackgroundChannel } from '../src/page/background-channel';
import { CONTENT_PORT_AGAIN_NAME, CONTENT_PORT_NAME, LEAVE_PAGE_LABEL } from '../schemas/content-port';
import { startPageBridge, startPageErrorRelay } from '../src/page/page-bridge';
import { createStepBatcher } from '../src/page/step-batcher';
import { RECT_REPORTER_GRACE_MS, startSensitiveRectReporter, type RectReporter } from '../src/page/rect-reporter';
import { recordsFramesFromStoredSettings, timelineFromStoredSettings } from '../src/settings/stored-capture-level';
import { startPageTimeline, type PageTimeline } from '../src/timeline/page/page-timeline';
import { takeSnapshot } from '../src/snapshot/take-snapshot';
import { observeActions } from '../src/page/observe-actions';
import { compileRedactionRules, selectorValidator } from '../src/redact/custom-rules';
import { BUILT_IN_MASKER, createTextMasker, type TextMasker } from '../src/redact/mask-text';
import { redactionRulesFromStoredSettings } from '../src/settings/stored-redaction-rules';
import { previewRedaction } from '../src/page/redaction-preview';
import { createKnownSecrets } from '../src/redact/known-secrets';
import { knownSecretsMaskers, withKnownSecrets } from '../src/redact/known-secrets-masker';
import { watchSensitiveValues } from '../src/page/watch-sensitive-values';
import { SETTINGS_KEY } from '../src/settings/migrations';
import { errorMessage } from '../src/shared/error-message';

/** After its worker stopped, a page waits this long before it starts a new one (the old one is gone by then). */
const WAKE_DELAY_MS = 100;

/**
 * Isolated world of every frame: records user actions, relays the page protocol and (top frame)
 * page errors and the on-screen rects of sensitive content to the background, and answers
 * `snapshot/capture` in the top frame.
 */
export default defineContentScript({
  matches: ['<all_urls>'],
  allFrames: true,
  runAt: 'document_start',
  main() {
    const isTop = window === window.top;
    const disposers: (() => void)[] = [];
    const warned = new Set<string>();
    const warnOnce = (what: string, err: unknown) => {
      const text = `${what}: ${errorMessage(err)}`;
      if (warned.has(text) || warned.size >= 20) return;
      warned.add(text);
      console.warn(`[afr] ${text}`);
    };
    const stop = () => disposers.splice(0).forEach((dispose) => dispose());

    // One port to the background for every message of this frame; reopened after a worker restart.
    const channel = openBackgroundChannel(
      (again) => browser.runtime.connect({ name: again ? CONTENT_PORT_AGAIN_NAME : CONTENT_PORT_NAME }),
      stop, // the extension was reloaded: this script is an orphan
      (text) => warnOnce('background', text),
      {
        // The worker stopped: the top frame's regions start a new one at once, which then has them
        // and records again, rather than at the page's next action or the worker's next alarm.
        onBackgroundStopped: () => {
          if (isTop) setTimeout(() => rectReporter?.refresh(true), WAKE_DELAY_MS);
        },
      },
    );
    disposers.push(() => channel.close());
    // A prerendered page being shown, or one restored from the back/forward cache: its sender changed
    // (frame id), or its port was closed while cached. A new port, and the regions told again at once.
    const renew = (e: Event) => {
      if (e.type === 'pageshow' && !(e as PageTransitionEvent).persisted) return;
      channel.reopen();
      rectReporter?.refresh(true);
      // A page restored from the cache is recorded afresh: the worker may have let its timeline go.
      if (e.type === 'pageshow') restartTimeline();
      // Settings may have changed while the page was cached or prerendered.
      readSettings();
    };
    document.addEventListener('prerenderingchange', renew);
    window.addEventListener('pageshow', renew, { capture: true });
    disposers.push(() => {
      document.removeEventListener('prerenderingchange', renew);
      window.removeEventListener('pageshow', renew, { capture: true });
    });
    // A quick run of steps goes as one message (a lone step and every other message go at once).
    const batcher = createStepBatcher((message) => channel.send(message), { unbatched: () => document.visibilityState === 'hidden' });
    disposers.push(() => batcher.dispose());
    // Not validated here: the background validates every message it receives, and keeps the valid
    // steps of a batch holding an invalid one. Building every message's schema here would cost each
    // frame of every page a dozen milliseconds of its load (see `schemas/content-messages.ts`).
    const send = (message: ToBackgroundMessage) => {
      if (!browser.runtime?.id) return stop();
      batcher.send(message);
    };

    // Top frame: where sensitive content is on screen (iframes included), so frames are masked before
    // they are stored. Started once the custom rules are known: until the first report the background
    // drops this page's frames, rather than store frames masked without the rules. Runs only while
    // frames are recorded (capture level `screenshots` up): below it the page is spared the work.
    let rectReporter: RectReporter | null = null;
    let masker: TextMasker = BUILT_IN_MASKER;
    // Values this document's sensitive fields held, in memory only: every producer of text masks them
    // wherever they reappear (a preview echoing a password, "Saved key …"). A new masker each time a
    // value is learnt, so caches of what a node's text masks look again.
    const knownSecrets = createKnownSecrets();
    const sensitiveValues = watchSensitiveValues(window, knownSecrets, () => masker.rules);
    disposers.push(() => sensitiveValues.stop());
    const maskerOf = knownSecretsMaskers(knownSecrets);
    const currentMasker = () => maskerOf(masker);
    let rulesKnown = false;
    let framesRecorded = true;
    let disposed = false;
    let stopLater: ReturnType<typeof setTimeout> | undefined;
    const stopRectReporter = () => {
      rectReporter?.();
      rectReporter = null;
    };
    const syncRectReporter = () => {
      if (!isTop || !rulesKnown || disposed) return;
      clearTimeout(stopLater);
      if (framesRecorded && !rectReporter) rectReporter = startSensitiveRectReporter(window, send, currentMasker);
      // The worker may take frames until it has applied the lower level itself: keep them masked a while.
      if (!framesRecorded && rectReporter) stopLater = setTimeout(stopRectReporter, RECT_REPORTER_GRACE_MS);
    };
    disposers.push(() => {
      disposed = true;
      clearTimeout(stopLater);
      stopRectReporter();
    });

    // Top frame, capture level `trace` and up: the page's DOM as a timeline (the page at every step),
    // started once the document is parsed and the custom rules are known; recorded again from a fresh
    // first snapshot when the rules change (what was recorded stays masked by the rules of its time).
    let timeline: PageTimeline | null = null;
    let timelineWanted = false;
    let timelineSeconds = 15;
    let timelineRules = '';
    const startTimelineNow = () => {
      if (timeline || !timelineWanted || disposed) return;
      // Follows what is learnt about secrets; a change of rules restarts the timeline.
      timeline = startPageTimeline(document, withKnownSecrets(masker, knownSecrets), { bufferSeconds: timelineSeconds, send, warn: (m, e) => warnOnce(m, e ?? '') });
    };
    const syncTimeline = () => {
      if (!isTop || !rulesKnown || disposed) return;
      if (!timelineWanted) {
        timeline?.stop();
        timeline = null;
      } else if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', startTimelineNow, { once: true });
      else startTimelineNow();
    };
    const restartTimeline = () => {
      if (!timeline) return;
      timeline.stop();
      timeline = null;
      syncTimeline();
    };
    disposers.push(() => {
      timeline?.stop();
      timeline = null;
    });

    // Custom redaction rules from the settings, kept current; the built-in rules apply meanwhile.
    // Every producer of text in this frame is handed `currentMasker`, so they all apply the same rules.
    const isValidSelector = selectorValidator(document);
    const applySettings = (stored: unknown) => {
      const { rules, problems } = compileRedactionRules(redactionRulesFromStoredSettings(stored), isValidSelector);
      masker = createTextMasker(rules);
      framesRecorded = recordsFramesFromStoredSettings(stored);
      rectReporter?.refresh();
      syncRectReporter();
      const wanted = timelineFromStoredSettings(stored);
      const rulesKey = JSON.stringify(redactionRulesFromStoredSettings(stored));
      const changed = rulesKey !== timelineRules || wanted.bufferSeconds !== timelineSeconds;
      timelineWanted = wanted.recorded;
      timelineSeconds = wanted.bufferSeconds;
      timelineRules = rulesKey;
      if (changed) restartTimeline();
      syncTimeline();
      for (const problem of problems) warnOnce('custom redaction rule ignored', problem);
    };
    const readSettings = () =>
      browser.storage.local
        .get(SETTINGS_KEY)
        .then((items) => applySettings(items[SETTINGS_KEY]))
        .catch((err: unknown) => warnOnce('could not read the redaction rules', err))
        .finally(() => {
          rulesKnown = true;
          syncRectReporter();
          syncTimeline();
        });
    void readSettings();
    const onStorage = (changes: Record<string, Browser.storage.StorageChange>, area: string) => {
      if (area === 'local' && changes[SETTINGS_KEY]) applySettings(changes[SETTINGS_KEY].newValue);
    };
    browser.storage.onChanged.addListener(onStorage);
    disposers.push(() => browser.storage.onChanged.removeListener(onStorage));

    const place = isTop ? (label: string, el: Element | null, point?: { x: number; y: number }) => timeline?.beforeAction(label, el, point) ?? null : undefined;
    disposers.push(
      observeActions(window, send, currentMasker, { place }),
      startPageBridge(window, send, currentMasker, { checkpoint: isTop ? (label) => timeline?.checkpoint(label) ?? null : undefined }),
    );
    // Waiting steps go before the page is left, hidden or frozen. Registered after the observer, and
    // not capturing, so the values it flushes on pagehide are in.
    const flushSteps = () => {
      batcher.flush();
      timeline?.flush();
    };
    const flushWhenHidden = () => document.visibilityState === 'hidden' && flushSteps();
    // The page as it is left: its last state survives the navigation that replaces it.
    const leavePage = () => {
      timeline?.checkpoint(LEAVE_PAGE_LABEL);
      flushSteps();
    };
    window.addEventListener('pagehide', leavePage);
    document.addEventListener('freeze', flushSteps);
    document.addEventListener('visibilitychange', flushWhenHidden);
    // The background is packaging a bundle or asking for regions (it reaches every frame): the steps before it go first.
    // Not for a frame's question (`redaction/sync`, several a second): steps may stay batched.
    const onBackgroundMessage = (message: unknown) => {
      const type = (message as { type?: unknown } | null)?.type;
      if (type !== 'redaction/sync' && type !== 'timeline/checkpoint') flushSteps();
      return false;
    };
    browser.runtime.onMessage.addListener(onBackgroundMessage);
    disposers.push(() => {
      window.removeEventListener('pagehide', leavePage);
      document.removeEventListener('freeze', flushSteps);
      document.removeEventListener('visibilitychange', flushWhenHidden);
      browser.runtime.onMessage.removeListener(onBackgroundMessage);
    });
    if (!isTop) return;
    disposers.push(startPageErrorRelay(window, send, currentMasker));

    // Only the top frame answers: `tabs.sendMessage` reaches every frame, the first answer wins.
    browser.runtime.onMessage.addListener((message: unknown, _sender, sendResponse) => {
      const parsed = ToContentMessageSchema.safeParse(message);
      if (!parsed.success) return false;
      if (parsed.data.type === 'redaction/report') {
        rectReporter?.refresh(true);
        return false;
      }
      if (parsed.data.type === 'redaction/sync') {
        if (!rectReporter) {
          sendResponse(null);
          return false;
        }
        rectReporter.sync((report) => sendResponse(report));
        return true; // answered at the second animation frame from now
      }
      if (parsed.data.type === 'timeline/checkpoint') {
        sendResponse(timeline?.checkpoint(parsed.data.label) ?? null);
        return false;
      }
      if (parsed.data.type === 'redaction/preview') {
        const { rules, problems } = compileRedactionRules(parsed.data.rules, isValidSelector);
        sendResponse(previewRedaction(document, rules, problems));
        return false;
      }
      let result: SnapshotCaptureResult;
      try {
        sensitiveValues.sweep(); // a script may have set a field's value without an event
        result = { ok: true, snapshot: takeSnapshot(document, currentMasker()) };
      } catch (err) {
        result = { ok: false, error: errorMessage(err) };
      }
      sendResponse(result); // synchronous answer: no `return true`
      return false;
    });
  },
});

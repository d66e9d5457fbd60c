import { captureLevelAtLeast } from '../../schemas/capture-level';
import type { SensitiveRectsMessage } from '../../schemas/messages';
import type { Settings } from '../../schemas/settings';
import { base64ToBytes } from '../shared/base64';
import { ActionBursts } from './action-bursts';
import { CaptureLoop, type CaptureStats } from './capture-loop';
import { FrameThrottle } from './frame-throttle';
import { SensitiveRegions, type FrameShown, type ImageRect } from './mask-plan';
import type { CaptureTarget, CapturedImage, Capturer } from './ports';
import { readJpegSize } from '../shared/jpeg-size';
import { withTimeout } from '../shared/timeout';
import type { FrameRing } from '../ring/frame-ring';
import type { FrameSource } from '../ring/ports';
import type { Clock } from '../shared/clock';
import { errorMessage } from '../shared/error-message';

/** CDP frame capture through the recorder's debugger session. */
export interface ScreencastPort {
  attachedTabs(): number[];
  start(tabId: number, options: { quality: number; maxWidth: number; maxHeight: number; fps: number }): Promise<void>;
  stop(tabId: number): Promise<void>;
  ack(tabId: number, sessionId: number): Promise<void>;
  /** A JPEG (base64) of a tab, visible or not. */
  screenshot(tabId: number, quality: number): Promise<string>;
}

export interface FrameSourcePorts {
  clock: Clock;
  ring: FrameRing;
  capturer: Capturer;
  /** The debugger session's frame sources; without it only `captureVisibleTab` is used. */
  screencast?: ScreencastPort;
  /** Fills sensitive regions of a JPEG (OffscreenCanvas in the service worker). */
  maskFrame?(jpeg: Uint8Array, rects: readonly ImageRect[], quality: number): Promise<Uint8Array>;
  debuggerState(tabId: number): { attached: boolean };
  /** Asks the tab's top frame to report its sensitive regions now (they are unknown: its window changed). */
  requestRegions?(tabId: number): void;
  /**
   * Asks the tab's top frame for its sensitive regions as of its second animation frame from now
   * (`redaction/sync`): that report, or null when it has none. A frame is masked once the answer to a request sent after
   * it arrived is in. Without it, a frame is masked `reportWaitMs` after it was taken.
   */
  syncRegions?(tabId: number): Promise<SensitiveRectsMessage | null>;
  /** The tab's current URL (redacted), as best known. */
  tabUrl(tabId: number): string | null;
  log(message: string): void;
  /** Without `syncRegions`: how long after its picture was taken a frame is masked (default `REPORT_WAIT_MS`; 0: at once). */
  reportWaitMs?: number;
}

/**
 * A JPEG from CDP (base64); for a screencast frame, the CSS size of what it shows and its scroll; when its picture
 * was taken if that is known to be earlier than its arrival (drawn, or a screenshot asked for).
 */
interface CdpFrame {
  data: string;
  shown?: FrameShown;
  takenAt?: number;
}

/** Documents of a tab's inner frames remembered at most (then forgotten, each counting as new once more). */
const MAX_SUBFRAME_DOCS = 256;
/** A screencast frame's own time is trusted when it is at most this old on arrival (clocks agree). */
const MAX_FRAME_AGE_MS = 5_000;

/**
 * Without a way to ask the page (`syncRegions`), a frame is masked once this long after its picture
 * was taken, with the reports that came meanwhile as well: the page reports a move the compositor
 * made (an inner scroller, a fling) a frame or two after it shows, when its main thread has the CPU.
 */
export const REPORT_WAIT_MS = 150;
/**
 * How long a frame waits for the page's answer (`syncRegions`): a page whose main thread is starved
 * or hung this long cannot tell where its fields are, and the frame is dropped.
 */
export const SYNC_WAIT_MS = 1_000;
/** How long a failure's bundle waits for a frame of the page as it is (`frameNow`): a hung page gives none. */
export const FRAME_NOW_WAIT_MS = 1_000;
/** A tab not visible in its window gets at most one CDP screenshot per this many ms of actions. */
const SCREENSHOT_SPACING_MS = 500;
/**
 * A screencasting tab that sent no frame this long after an action is not being painted (a
 * background tab, or one whose compositor is idle in a headless window): it gets a screenshot.
 */
export const CAST_SILENCE_MS = 400;
/**
 * How `auto` tells a burst of actions (see `ActionBursts`): steps within 150 ms of an action's first
 * step are that action (a click, the submit it causes, the agent's report of it); an action starting
 * less than 150 ms after the previous one ended starts a burst (the screencast holds): in effect,
 * three steps in a row each less than 150 ms after the one before. 600 ms without a step end it.
 */
export const BURST_TIMES = { coalesceMs: 150, gapMs: 150, quietMs: 600 } as const;
/** During a burst, a tab gets a screenshot after its actions at most this often; the last action always gets one. */
export const BURST_SHOT_SPACING_MS = 400;
/**
 * During a burst, the visible tab gets a captureVisibleTab frame at most this often (about one a
 * second): each costs Chromium a copy of the window and a JPEG, and us a mask, which an agent acting
 * without pause pays for in wall time. The frame after the burst (its screencast again) and the one
 * at a failure (`frameNow`) show where it ended.
 */
export const BURST_FRAME_SPACING_MS = 1_000;

/** Whether the settings have frames recorded (and pages report their sensitive regions). */
const recordsFrames = (s: Settings) => captureLevelAtLeast(s.captureLevel, 'screenshots');

/**
 * Where frames come from and how they get into the ring: the screencast of every tab with a
 * debugger session (throttled to `fps`, identical frames stored once), `captureVisibleTab` for the
 * visible tab of each window without one, and a CDP screenshot after an action in a tab that is not
 * visible. In `auto` mode a tab's screencast holds while the agent acts in a burst (see
 * `ActionBursts`): captureVisibleTab, or screenshots after its actions, stand in for it. Every frame,
 * whatever its source, has its sensitive regions filled before it is stored, or is dropped when they
 * are not known.
 */
export class FrameSources {
  readonly loop: CaptureLoop;
  /** Tabs whose frames come from the screencast (the visibleTab loop leaves them alone). */
  private readonly casting = new Set<number>();
  private readonly throttle: FrameThrottle<CdpFrame>;
  private readonly regions: SensitiveRegions;
  private readonly lastScreenshot = new Map<number, number>();
  /** When each tab's latest frame to be stored (masked, not dropped) was taken, whatever its source. */
  private readonly lastFrameAt = new Map<number, number>();
  /** Counts the times recording stopped: a frame held for its masks is dropped if it did meanwhile. */
  private captureEpoch = 0;
  /** When each screencasting tab last sent a frame, and the pending check after an action. */
  private readonly lastCastFrameAt = new Map<number, number>();
  private readonly silenceChecks = new Map<number, ReturnType<typeof setTimeout>>();
  /** Tabs whose last frame was dropped because their regions were unknown: a frame is taken when they report. */
  private readonly awaitingRegions = new Set<number>();
  /** The documents of frames inside each tab's page whose content scripts connected (see `handleSubframeLoad`). */
  private readonly subframeDocs = new Map<number, Set<string>>();
  private readonly bursts = new ActionBursts(BURST_TIMES);
  /** Screencasting tabs whose screencast is stopped for a burst, with the check for its end. */
  private readonly held = new Map<number, ReturnType<typeof setTimeout>>();
  /** The screenshot due after a tab's latest action (spaced, so it may wait): a tab in a burst, or one not visible. */
  private readonly dueShots = new Map<number, ReturnType<typeof setTimeout>>();
  private readonly cdpStats = { stored: 0, dropped: 0, masked: 0, errors: 0 };
  /** Each tab's request for its regions in flight, and the one to be sent once it is answered (see `syncRegions`). */
  private readonly syncs = new Map<number, { answer: Promise<boolean>; next: Promise<boolean> | null }>();
  /** Tabs whose page did not answer in time: their frames are dropped at once (logged once) until it answers or reports. */
  private readonly unanswered = new Set<number>();
  private castOptions = '';
  private paused = false;

  /** `settings` until `apply` gives newer ones. */
  constructor(
    private readonly ports: FrameSourcePorts,
    private settings: Settings,
  ) {
    this.regions = new SensitiveRegions(() => ports.clock.now());
    this.loop = new CaptureLoop(ports.capturer, ports.ring, ports.clock, { intervalMs: settings.captureIntervalMs, jpegQuality: settings.jpegQuality }, ports.log);
    this.throttle = new FrameThrottle<CdpFrame>(settings.fps, (tabId, ts, frame) => void this.storeCdpFrame(tabId, ts, frame, 'screencast'));
    this.loop.setFrameFilter((target, image, takenAt) => this.prepareFrame(target.tabId, image, takenAt));
    // A tab held for a burst is the loop's again until the burst ends, one frame per `BURST_FRAME_SPACING_MS`.
    this.loop.setTargetFilter((target) => this.loopRecords(target.tabId) && (!this.held.has(target.tabId) || this.burstFrameDue(target.tabId)));
  }

  /** Follows the settings and the pause: frames are taken from capture level `screenshots` up. */
  async apply(settings: Settings, paused: boolean): Promise<void> {
    // Below `screenshots` pages stop reporting their regions: from the moment the level falls the last
    // reports may go stale, and when it rises the pages are asked for fresh ones.
    if (recordsFrames(this.settings) !== recordsFrames(settings)) {
      const tabs = this.regions.resetAll();
      if (recordsFrames(settings)) for (const tabId of tabs) this.ports.requestRegions?.(tabId);
    }
    const was = this.capturing;
    this.settings = settings;
    this.paused = paused;
    if (was && !this.capturing) this.captureEpoch++;
    this.loop.configure({ intervalMs: settings.captureIntervalMs, jpegQuality: settings.jpegQuality });
    this.throttle.setFps(settings.fps);
    if (this.capturing) this.loop.start();
    else this.loop.stop();
    await this.syncScreencasts();
  }

  private get capturing(): boolean {
    return recordsFrames(this.settings) && !this.paused;
  }

  /** Whether any source is recording now. */
  get recording(): boolean {
    return this.loop.isRunning || this.casting.size > 0;
  }

  /** The visible tab of each window, as the capture loop last saw them. */
  targets(): readonly CaptureTarget[] {
    return this.loop.targets();
  }

  /** The visible tabs now, asked of the capturer. */
  listTargets(): Promise<readonly CaptureTarget[]> {
    return this.loop.listTargets();
  }

  /** Where the frames of a visible tab come from now: one held for a burst is captureVisibleTab's meanwhile. */
  sourceOf(tabId: number): 'screencast' | 'visibleTab' {
    return this.casting.has(tabId) && !this.held.has(tabId) ? 'screencast' : 'visibleTab';
  }

  /** Capture statistics of both sources: the visibleTab loop and the CDP frames. */
  stats(): CaptureStats {
    const loop = this.loop.stats();
    return {
      ...loop,
      capturesOk: loop.capturesOk + this.cdpStats.stored,
      captureErrors: loop.captureErrors + this.cdpStats.errors,
      dropped: loop.dropped + this.cdpStats.dropped,
      maskedRegions: loop.maskedRegions + this.cdpStats.masked,
    };
  }

  // ---- what the browser reports ----

  /** The sensitive regions the top document of a tab reported. */
  updateRegions(tabId: number, report: SensitiveRectsMessage): void {
    const first = !this.regions.known(tabId);
    this.regions.update(tabId, report);
    this.unanswered.delete(tabId);
    if (this.awaitingRegions.delete(tabId)) this.retake(tabId);
    // A new page's first report: a still page may have painted its only frame before it (dropped,
    // or never sent: a screencast started on a page already painted sends nothing).
    else if (first && this.capturing && this.casting.has(tabId)) this.expectCastFrame(tabId);
  }

  /**
   * Takes another frame of the tab, after one was dropped for want of its regions: a page that does
   * not repaint sends no new screencast frame. By the capture loop where it records the tab, else by
   * a CDP screenshot.
   */
  private retake(tabId: number): void {
    if (!this.capturing) return;
    if (this.isVisible(tabId) && this.loopRecords(tabId)) this.loop.requestCapture(tabId);
    else this.spacedScreenshot(tabId);
  }

  /** A tab started loading a new document: its sensitive regions are unknown until it reports. */
  handleNavigation(tabId: number): void {
    this.regions.reset(tabId);
    this.subframeDocs.delete(tabId);
  }

  /**
   * A frame inside the tab's page loaded a document (its content script connected, at
   * `document_start`): if it is another origin's, the top document's last report does not mask it.
   * The tab's regions are unknown until the top, asked now, reports again. A document seen before
   * changes nothing, nor does one that connects `again` (its port dropped by a worker that stopped):
   * it loaded before this worker started, so before the top's report that started it.
   */
  handleSubframeLoad(tabId: number, documentId: string | null, again = false): void {
    if (documentId !== null) {
      const seen = this.subframeDocs.get(tabId) ?? new Set<string>();
      if (seen.has(documentId)) return;
      if (seen.size >= MAX_SUBFRAME_DOCS) seen.clear();
      this.subframeDocs.set(tabId, seen.add(documentId));
    }
    if (again) return;
    if (!recordsFrames(this.settings) || !this.regions.reset(tabId)) return;
    this.ports.requestRegions?.(tabId);
  }

  /** The debugger session of a tab is ready: its frames may come from the screencast now. */
  async handleDebuggerAttached(): Promise<void> {
    await this.syncScreencasts();
  }

  /** The debugger session of a tab is gone (closed tab, or the user detached it): back to captureVisibleTab. */
  handleDebuggerDetached(tabId: number): void {
    this.endBurst(tabId);
    // A new session brings the "started debugging" bar back: its first frame is a first frame again.
    this.regions.forgetShown(tabId);
    this.casting.delete(tabId);
    this.throttle.forget(tabId);
  }

  /** A `Page.screencastFrame` event: acknowledged at once, offered to the throttle. */
  handleScreencastFrame(tabId: number, params: Record<string, unknown> | undefined): void {
    const sessionId = params?.sessionId;
    const data = params?.data;
    // Acknowledge first: the renderer sends nothing more until it is.
    if (typeof sessionId === 'number') void this.ports.screencast?.ack(tabId, sessionId).catch(() => undefined);
    if (typeof data !== 'string' || !this.casting.has(tabId)) return;
    this.lastCastFrameAt.set(tabId, this.ports.clock.now());
    // What the frame shows, in CSS px: the window's surface, which may be the top of an emulated viewport.
    const meta = params?.metadata as
      | { deviceWidth?: unknown; deviceHeight?: unknown; scrollOffsetX?: unknown; scrollOffsetY?: unknown; timestamp?: unknown }
      | undefined;
    const scroll =
      typeof meta?.scrollOffsetX === 'number' && typeof meta.scrollOffsetY === 'number' && Number.isFinite(meta.scrollOffsetX) && Number.isFinite(meta.scrollOffsetY)
        ? { scroll: { x: meta.scrollOffsetX, y: meta.scrollOffsetY } }
        : {};
    const shown =
      typeof meta?.deviceWidth === 'number' && typeof meta.deviceHeight === 'number' && meta.deviceWidth > 0 && meta.deviceHeight > 0
        ? { width: meta.deviceWidth, height: meta.deviceHeight, ...scroll }
        : undefined;
    // The window changed since the page reported: its regions are unknown until it reports again.
    if (shown && this.regions.noteShown(tabId, shown)) this.ports.requestRegions?.(tabId);
    const now = this.ports.clock.now();
    // When the frame was drawn (seconds since the epoch): it may have taken a while to arrive.
    const drawnAt = typeof meta?.timestamp === 'number' ? meta.timestamp * 1000 : NaN;
    const takenAt = drawnAt <= now && now - drawnAt < MAX_FRAME_AGE_MS ? drawnAt : now;
    // The picture itself is its key: a frame differs from the last one if any of its bytes does (a
    // digit of an error message changed may leave the JPEG as long as before).
    this.throttle.offer(tabId, now, data, { data, shown, takenAt });
  }

  forgetTab(tabId: number): void {
    clearTimeout(this.silenceChecks.get(tabId));
    this.silenceChecks.delete(tabId);
    this.lastCastFrameAt.delete(tabId);
    this.casting.delete(tabId);
    this.throttle.forget(tabId);
    this.regions.forget(tabId);
    this.lastScreenshot.delete(tabId);
    this.lastFrameAt.delete(tabId);
    this.awaitingRegions.delete(tabId);
    this.unanswered.delete(tabId);
    this.subframeDocs.delete(tabId);
    this.endBurst(tabId);
    this.bursts.forget(tabId);
  }

  /**
   * A step of a tab (an observed action or navigation, or the agent's own step), at its own time
   * `at`. In `auto` mode an `action` may start or continue a burst (see `duringBurst`). With
   * `capture` (the `captureOnAction` setting) a frame is taken right after it: a screencasting tab
   * repaints by itself (or, when it sends nothing soon after, gets a CDP screenshot); the visible tab
   * of a window goes to the front of the capture loop; any other tab (not visible) gets a CDP screenshot.
   */
  handleAction(tabId: number, at: number, { capture, action }: { capture: boolean; action: boolean }): void {
    if (!this.capturing) return;
    const auto = this.settings.captureSource === 'auto' && this.casting.has(tabId);
    if (auto && ((action && this.bursts.noteAction(tabId, at)) || this.held.has(tabId))) return this.duringBurst(tabId, capture);
    if (!capture) return;
    if (this.casting.has(tabId)) return this.expectCastFrame(tabId);
    if (this.isVisible(tabId) || !this.ports.screencast) {
      this.loop.requestCapture(tabId);
      return;
    }
    this.spacedScreenshot(tabId);
  }

  /** Whether the captureVisibleTab loop records the tab when it is visible: no screencast, or one held for a burst. */
  private loopRecords(tabId: number): boolean {
    return !this.casting.has(tabId) || this.held.has(tabId);
  }

  /**
   * The screencasting tab should send a frame soon (after an action, once its screencast started,
   * once its new page reported): if none comes within `CAST_SILENCE_MS`, nothing is being painted (a
   * still page, a background tab, an idle compositor in a headless window), and it gets a screenshot.
   */
  private expectCastFrame(tabId: number): void {
    if (this.silenceChecks.has(tabId)) return;
    const since = this.ports.clock.now();
    const check = () => {
      this.silenceChecks.delete(tabId);
      // A screenshot taken meanwhile (a retake, the failure's frame) shows it as well.
      const latest = Math.max(this.lastCastFrameAt.get(tabId) ?? -Infinity, this.lastScreenshot.get(tabId) ?? -Infinity);
      if (this.capturing && this.casting.has(tabId) && !this.held.has(tabId) && latest < since) this.spacedScreenshot(tabId);
    };
    this.silenceChecks.set(tabId, setTimeout(check, CAST_SILENCE_MS));
  }

  /** Whether a tab held for a burst may have its next captureVisibleTab frame: `BURST_FRAME_SPACING_MS` after its latest of any source. */
  private burstFrameDue(tabId: number): boolean {
    return this.ports.clock.now() - (this.lastFrameAt.get(tabId) ?? -Infinity) >= BURST_FRAME_SPACING_MS;
  }

  /** Whether the tab is the visible tab of its window, as the capture loop last saw them. */
  private isVisible(tabId: number): boolean {
    return this.loop.targets().some((t) => t.tabId === tabId);
  }

  /**
   * An action of a screencasting tab in a burst: its screencast stops until the burst is over. A
   * visible tab is recorded by the captureVisibleTab loop meanwhile (it copies the window as it is,
   * where a CDP screenshot makes the page paint a frame for it); with `capture`, another tab gets a
   * CDP screenshot after its actions, `BURST_SHOT_SPACING_MS` apart, the last action's always.
   */
  private duringBurst(tabId: number, capture: boolean): void {
    if (!this.held.has(tabId)) {
      // Without frames after actions a hidden tab would get none in the burst: its screencast goes on.
      if (!capture && !this.isVisible(tabId)) return;
      this.awaitBurstEnd(tabId);
      clearTimeout(this.silenceChecks.get(tabId));
      this.silenceChecks.delete(tabId);
      void this.ports.screencast?.stop(tabId).catch((error: unknown) => this.ports.log(`[afr] screencast of tab ${tabId} did not stop: ${String(error)}`));
    }
    if (!capture) return;
    // The visible tab: the loop's rounds take its frames, spaced; one is taken now if it is due.
    if (this.isVisible(tabId)) return void (this.burstFrameDue(tabId) && this.loop.requestCapture(tabId));
    this.spacedScreenshot(tabId, BURST_SHOT_SPACING_MS);
  }

  /** Holds the tab until its burst has been quiet long enough, then starts its screencast again. */
  private awaitBurstEnd(tabId: number): void {
    const check = () => {
      const left = this.bursts.quietIn(tabId, this.ports.clock.now());
      if (left > 0) {
        this.held.set(tabId, setTimeout(check, left));
        return;
      }
      this.release(tabId);
    };
    this.held.set(tabId, setTimeout(check, this.bursts.quietIn(tabId, this.ports.clock.now())));
  }

  /** Ends a held tab's burst and starts its screencast again. */
  private release(tabId: number): void {
    this.endBurst(tabId);
    if (!this.casting.has(tabId) || !this.wantsScreencast) return;
    // Frames came from elsewhere meanwhile: the first one of the screencast is no repeat, even if it looks the same.
    this.throttle.forgetPicture(tabId);
    void this.startScreencast(tabId);
  }

  /**
   * A failure of the tab is being bundled: a burst it was in ends now, so the after-failure tail
   * (`postFailureSeconds`) is recorded from the screencast at `fps`. An agent that acts on soon
   * starts another one.
   */
  handleFailure(tabId: number): void {
    if (this.held.has(tabId)) this.release(tabId);
  }

  /** Forgets the tab's burst: its timers and the hold (the caller starts or stops its screencast). */
  private endBurst(tabId: number): void {
    clearTimeout(this.held.get(tabId));
    clearTimeout(this.dueShots.get(tabId));
    this.held.delete(tabId);
    this.dueShots.delete(tabId);
    this.bursts.end(tabId);
  }

  /**
   * A CDP screenshot of a tab with a debugger session after its action, at most one per `spacingMs`:
   * one asked for sooner is taken when the spacing allows, and shows every action since.
   */
  private spacedScreenshot(tabId: number, spacingMs = SCREENSHOT_SPACING_MS): void {
    if (this.dueShots.has(tabId)) return; // the due screenshot will show this action too
    const wait = (this.lastScreenshot.get(tabId) ?? -Infinity) + spacingMs - this.ports.clock.now();
    if (wait <= 0) return void this.screenshot(tabId);
    const shoot = () => {
      this.dueShots.delete(tabId);
      if (this.capturing) void this.screenshot(tabId);
    };
    this.dueShots.set(tabId, setTimeout(shoot, wait));
  }

  /** A CDP screenshot, stored like any frame; resolves once it is stored (or failed, logged). */
  private screenshot(tabId: number): Promise<void> {
    if (!this.ports.debuggerState(tabId).attached || !this.ports.screencast) return Promise.resolve();
    const takenAt = this.ports.clock.now();
    this.lastScreenshot.set(tabId, takenAt);
    return this.ports.screencast
      .screenshot(tabId, this.settings.jpegQuality)
      .then((data) => this.storeCdpFrame(tabId, this.ports.clock.now(), { data, takenAt }, 'screenshot'))
      .catch((error: unknown) => this.ports.log(`[afr] screenshot of tab ${tabId} failed: ${String(error)}`));
  }

  /**
   * A frame of a screencasting tab as it is now, for a failure's bundle: the screencast sends one
   * frame of every few the page paints (about `fps` of 60 a second while it animates), so the last
   * change before a still page (an error message shown once) may never have come. Resolves once it
   * is stored, failed, or after `waitMs`. A tab that is not visible and has no screencast (its
   * frames come after its actions only) gets one too, if it has a debugger session. A visible tab the
   * captureVisibleTab loop records does not: it gets a frame about twice a second anyway.
   */
  async frameNow(tabId: number, waitMs = FRAME_NOW_WAIT_MS): Promise<void> {
    if (!this.capturing || (!this.casting.has(tabId) && this.isVisible(tabId))) return;
    // `screenshot` never rejects: only the wait can.
    await withTimeout(this.screenshot(tabId), waitMs, `the screenshot of tab ${tabId} for its bundle`).catch((error: unknown) => this.ports.log(`[afr] ${String(error)}`));
  }

  // ---- storing ----

  /**
   * The last step before a frame is stored: sensitive regions filled, or the frame dropped when the
   * tab's regions are not known (a page whose content script has not reported since it loaded).
   */
  private async prepareFrame(tabId: number, image: CapturedImage, takenAt: number, shown?: CdpFrame['shown']): Promise<CapturedImage | null> {
    // A frame that was on its way when recording stopped: the page may no longer report its regions.
    if (!this.capturing) return null;
    const epoch = this.captureEpoch;
    // The compositor moves what it can (a scroller, a fling) before the page hears of it: a frame may
    // show a field where no report has it yet. The page is asked now, and answers at its second
    // animation frame, which has seen every scroll this frame shows: masked with the reports from the
    // one in force when it was taken to that answer, the frame covers where the field was, went, and
    // everything between (`SensitiveRegions.plan`). A page that cannot answer in time: dropped.
    if (this.ports.syncRegions && this.regions.known(tabId)) {
      // A page that did not answer the last time (hung, starved): dropped at once until it reports again.
      if (this.unanswered.has(tabId)) return null;
      const synced = await withTimeout(this.syncRegions(tabId), SYNC_WAIT_MS, `the regions of tab ${tabId}`).catch((error: unknown) => {
        if (!this.unanswered.has(tabId)) this.ports.log(`[afr] frame of tab ${tabId} dropped: ${String(error)}`);
        this.unanswered.add(tabId);
        return false;
      });
      if (!synced) return null;
    } else if (!this.ports.syncRegions) {
      // Masked with the reports of a moment after it was taken too. A screencast frame says when it
      // was drawn; a capture or screenshot may show any moment until it returned (now).
      const hold = this.ports.reportWaitMs ?? REPORT_WAIT_MS;
      const wait = shown ? takenAt + hold - this.ports.clock.now() : hold;
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(wait, hold)));
    }
    // Recording stopped meanwhile (even if it started again): not this frame.
    if (!this.capturing || this.captureEpoch !== epoch) return null;
    const rects = this.ports.maskFrame ? this.regions.plan(tabId, image.width, image.height, shown, takenAt) : [];
    if (rects === null) return null;
    // A frame to be stored: a burst's next captureVisibleTab frame is a second after it.
    this.lastFrameAt.set(tabId, Math.max(takenAt, this.lastFrameAt.get(tabId) ?? -Infinity));
    if (!this.ports.maskFrame) return image;
    if (rects.length === 0) return { ...image, masked: 0 };
    return { ...image, jpeg: await this.ports.maskFrame(image.jpeg, rects, this.settings.jpegQuality), masked: rects.length };
  }

  /**
   * Resolves true once the tab's page answered a request for its regions sent after this call (the
   * answer is then one of its reports), false when it has none to give or the tab's regions were
   * forgotten meanwhile (a navigation). One request per tab at a time: frames that come while it is
   * in flight share the next one. The caller stops waiting after `SYNC_WAIT_MS`; an answer that
   * comes later still counts as a report (and brings the retake of a dropped frame).
   */
  private syncRegions(tabId: number): Promise<boolean> {
    const running = this.syncs.get(tabId);
    if (running) return (running.next ??= running.answer.then(() => this.askRegions(tabId)));
    return this.askRegions(tabId);
  }

  private askRegions(tabId: number): Promise<boolean> {
    const generation = this.regions.generation(tabId);
    const answer = this.ports.syncRegions!(tabId)
      .then((report) => {
        // No answer (no content script, not painted), or from a document since replaced.
        if (!report || generation === undefined || this.regions.generation(tabId) !== generation) return false;
        this.updateRegions(tabId, report);
        return true;
      })
      .catch((error: unknown) => {
        this.ports.log(`[afr] the regions of tab ${tabId}: ${String(error)}`);
        return false;
      });
    // The next request waits for this one, at most `SYNC_WAIT_MS`.
    const entry: { answer: Promise<boolean>; next: Promise<boolean> | null } = {
      answer: withTimeout(answer, SYNC_WAIT_MS, 'a request for regions')
        .catch(() => false)
        .finally(() => {
          if (this.syncs.get(tabId) === entry) this.syncs.delete(tabId);
        }),
      next: null,
    };
    this.syncs.set(tabId, entry);
    return answer;
  }

  /** Stores a frame from CDP (screencast or screenshot), at `ts` in the ring, through the same masking as any frame. */
  private async storeCdpFrame(tabId: number, ts: number, frame: CdpFrame, source: FrameSource): Promise<void> {
    const takenAt = frame.takenAt ?? ts;
    try {
      const jpeg = base64ToBytes(frame.data);
      const size = readJpegSize(jpeg);
      if (!size) throw new Error('not a readable JPEG');
      const image = await this.prepareFrame(tabId, { jpeg, ...size }, takenAt, frame.shown);
      if (!image) {
        this.cdpStats.dropped++;
        this.throttle.forgetPicture(tabId);
        // Taken before the page's report that came meanwhile (a screenshot on its way): again now.
        // Else again once the page reports.
        if (this.regions.predatesReports(tabId, takenAt)) this.retake(tabId);
        else this.awaitingRegions.add(tabId);
        return;
      }
      await this.ports.ring.add(
        { tabId, windowId: -1, url: this.ports.tabUrl(tabId), ts, size: image.jpeg.byteLength, width: image.width, height: image.height, masked: image.masked ?? 0, source },
        image.jpeg,
      );
      this.cdpStats.stored++;
      this.cdpStats.masked += image.masked ?? 0;
    } catch (error) {
      this.cdpStats.errors++;
      this.ports.log(`[afr] ${source} frame of tab ${tabId} not stored: ${errorMessage(error)}`);
    }
  }

  // ---- the screencast ----

  private get wantsScreencast(): boolean {
    return this.ports.screencast !== undefined && this.settings.captureSource !== 'visibleTab' && this.capturing;
  }

  private get castOptionsNow() {
    const s = this.settings;
    return { quality: s.jpegQuality, maxWidth: s.maxWidth, maxHeight: s.maxHeight, fps: s.fps };
  }

  /** Starts the screencast on every attached tab, or stops it everywhere, as the settings say. */
  private async syncScreencasts(): Promise<void> {
    const port = this.ports.screencast;
    if (!port) return;
    const key = JSON.stringify(this.castOptionsNow);
    // Changed frame options: every running screencast restarts with them.
    const restart = key !== this.castOptions;
    this.castOptions = key;
    // Paused, or no screencast wanted: no burst is waited for, whatever became of the tab's session.
    if (!this.wantsScreencast) for (const tabId of [...this.held.keys()]) this.endBurst(tabId);
    for (const tabId of port.attachedTabs()) {
      if (this.wantsScreencast) {
        if (this.held.has(tabId)) {
          // Held for a burst: it starts, with the current options, when the burst ends; unless `auto` is off.
          if (this.settings.captureSource === 'auto') continue;
          this.endBurst(tabId);
        } else if (this.casting.has(tabId) && !restart) continue;
        this.casting.add(tabId); // before the await: a concurrent sync must not start it twice
        await this.startScreencast(tabId);
      } else if (this.casting.delete(tabId)) {
        await port.stop(tabId).catch(() => undefined);
      }
    }
  }

  /** Starts a tab's screencast (or restarts one left running); when refused, the tab goes back to captureVisibleTab. */
  private async startScreencast(tabId: number): Promise<void> {
    const port = this.ports.screencast;
    if (!port) return;
    const options = this.castOptionsNow;
    await port
      .start(tabId, options)
      .catch(async (error: unknown) => {
        // A screencast left running (by the previous service worker, or with other options): restart it.
        if (!/already active/i.test(String(error))) throw error;
        await port.stop(tabId);
        await port.start(tabId, options);
      })
      .then(() => {
        // A page that is not repainting sends no first frame.
        if (this.casting.has(tabId)) this.expectCastFrame(tabId);
      })
      .catch((error: unknown) => {
        this.casting.delete(tabId);
        this.ports.log(`[afr] screencast of tab ${tabId} refused: ${String(error)}; using captureVisibleTab`);
      });
  }
}

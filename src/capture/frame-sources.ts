import { captureLevelAtLeast } from '../../schemas/capture-level';
import type { SensitiveRectsMessage } from '../../schemas/messages';
import type { Settings } from '../../schemas/settings';
import type { FrameRing } from '../ring/frame-ring';
import type { Clock } from '../shared/clock';
import { withTimeout } from '../shared/timeout';
import { BurstHold } from './burst-hold';
import { CaptureLoop, type CaptureStats } from './capture-loop';
import { CdpFrameStore, type CdpFrame } from './cdp-frame-store';
import { FirstFrameOwed } from './first-frame-owed';
import { FrameThrottle } from './frame-throttle';
import { MaskGate, type MaskGatePorts } from './mask-gate';
import type { CaptureTarget, Capturer } from './ports';
import { ScreencastControl, type ScreencastControlPort } from './screencast-control';
import { parseScreencastFrame } from './screencast-frame';
import { ScreenshotScheduler, type ScreenshotPort } from './screenshot-scheduler';

/** CDP frame capture through the recorder's debugger session. */
export interface ScreencastPort extends ScreencastControlPort, ScreenshotPort {
  ack(tabId: number, sessionId: number): Promise<void>;
}

/** What the frame sources need of the browser (the masking ports: see `MaskGatePorts`). */
export interface FrameSourcePorts extends MaskGatePorts {
  clock: Clock;
  ring: FrameRing;
  capturer: Capturer;
  /** The debugger session's frame sources; without it only `captureVisibleTab` is used. */
  screencast?: ScreencastPort;
  debuggerState(tabId: number): { attached: boolean };
  /** The tab's current URL (redacted), as best known. */
  tabUrl(tabId: number): string | null;
  /** Whether the tab is in the recording scope (every tab without it): no frame of any other is taken or kept. */
  recordsTab?(tabId: number): boolean;
  log(message: string): void;
}

/** How long a failure's bundle waits for a frame of the page as it is (`frameNow`): a hung page gives none. */
export const FRAME_NOW_WAIT_MS = 1_000;

/**
 * How long a screencasting tab whose page reported its regions afresh (a resized window, a frame
 * loaded inside it, the capture level raised) may send no frame before it gets a screenshot: a page
 * that is painting sends one within a frame or two. A new page gets one at once (see `updateRegions`).
 */
export const FIRST_REPORT_SILENCE_MS = 100;

/** Whether the settings have frames recorded (and pages report their sensitive regions). */
const recordsFrames = (s: Settings) => captureLevelAtLeast(s.captureLevel, 'screenshots');

/**
 * Where frames come from and how they get into the ring: the screencast of every tab with a
 * debugger session (throttled to `fps`, identical frames stored once), `captureVisibleTab` for the
 * visible tab of each window without one, and a CDP screenshot after an action in a tab that is not
 * visible. In `auto` mode a tab's screencast holds while the agent acts in a burst (see
 * `ActionBursts`): captureVisibleTab, or screenshots after its actions, stand in for it. Every frame,
 * whatever its source, has its sensitive regions filled before it is stored, or is dropped when they
 * are not known (`MaskGate`).
 */
export class FrameSources {
  readonly loop: CaptureLoop;
  private readonly throttle: FrameThrottle<CdpFrame>;
  private readonly gate: MaskGate;
  private readonly cast: ScreencastControl;
  private readonly hold: BurstHold;
  private readonly shots: ScreenshotScheduler;
  private readonly cdp: CdpFrameStore;
  private paused = false;
  private readonly firstFrames: FirstFrameOwed;

  /** `settings` until `apply` gives newer ones. */
  constructor(
    private readonly ports: FrameSourcePorts,
    private settings: Settings,
  ) {
    const { clock, screencast } = ports;
    const log = (message: string) => ports.log(message);
    const capturing = () => this.capturing;
    const jpegQuality = () => this.settings.jpegQuality;
    const recordsNow = () => recordsFrames(this.settings);
    this.gate = new MaskGate(ports, { clock, log, capturing, jpegQuality, recordsFrames: recordsNow, reported: (tabId, report) => this.updateRegions(tabId, report) });
    this.loop = new CaptureLoop(ports.capturer, ports.ring, clock, { intervalMs: settings.captureIntervalMs, jpegQuality: settings.jpegQuality }, ports.log);
    this.throttle = new FrameThrottle<CdpFrame>(settings.fps, (tabId, ts, frame) => {
      if (this.recordsTab(tabId)) void this.cdp.store(tabId, ts, frame, 'screencast');
    });
    this.hold = new BurstHold({
      clock,
      latestFrameAt: (tabId) => this.gate.latestFrameAt(tabId),
      isVisible: (tabId) => this.isVisible(tabId),
      requestCapture: (tabId) => this.loop.requestCapture(tabId),
      screenshot: (tabId, spacingMs) => this.shots.spaced(tabId, spacingMs),
      ended: (tabId) => this.shots.cancelDue(tabId),
      released: (tabId) => this.resumeScreencast(tabId),
      stopScreencast: (tabId) => {
        this.shots.cancelSilenceCheck(tabId);
        this.cast.stopForBurst(tabId);
      },
    });
    this.cast = new ScreencastControl({ screencast, settings: () => this.settings, capturing, log, hold: this.hold, started: (tabId) => this.screencastStarted(tabId) });
    const casts = (tabId: number) => this.sourceOf(tabId) === 'screencast';
    this.shots = new ScreenshotScheduler({ clock, screencast, debuggerState: (tabId) => ports.debuggerState(tabId), log, capturing, jpegQuality, casts, store: (tabId, ts, frame) => (this.recordsTab(tabId) ? this.cdp.store(tabId, ts, frame, 'screenshot') : Promise.resolve()) });
    this.firstFrames = new FirstFrameOwed(clock, this.gate);
    this.cdp = new CdpFrameStore({ ring: ports.ring, gate: this.gate, tabUrl: (tabId) => ports.tabUrl(tabId), log, forgetPicture: (tabId) => this.throttle.forgetPicture(tabId), retake: (tabId, takenAt) => this.retake(tabId, takenAt) });
    this.loop.setFrameFilter((target, image, takenAt) => this.gate.prepare(target.tabId, image, takenAt));
    // A tab held for a burst is the loop's again until the burst ends, one frame per `BURST_FRAME_SPACING_MS`.
    this.loop.setTargetFilter((target) => this.recordsTab(target.tabId) && this.loopRecords(target.tabId) && (!this.hold.isHeld(target.tabId) || this.hold.frameDue(target.tabId)));
  }

  /** Follows the settings and the pause: frames are taken from capture level `screenshots` up. */
  async apply(settings: Settings, paused: boolean): Promise<void> {
    // Below `screenshots` pages stop reporting their regions: from the moment the level falls the last
    // reports may go stale, and when it rises the pages are asked for fresh ones.
    if (recordsFrames(this.settings) !== recordsFrames(settings)) this.gate.forgetAllReports(recordsFrames(settings));
    const was = this.capturing;
    this.settings = settings;
    this.paused = paused;
    if (was && !this.capturing) this.gate.recordingStopped();
    this.loop.configure({ intervalMs: settings.captureIntervalMs, jpegQuality: settings.jpegQuality });
    this.throttle.setFps(settings.fps);
    if (this.capturing) this.loop.start();
    else this.loop.stop();
    await this.cast.sync();
  }

  private get capturing(): boolean {
    return recordsFrames(this.settings) && !this.paused;
  }

  /** Whether any source is recording now. */
  get recording(): boolean {
    return this.loop.isRunning || this.cast.any;
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
    return this.cast.isCasting(tabId) && !this.hold.isHeld(tabId) ? 'screencast' : 'visibleTab';
  }

  /** Capture statistics of both sources: the visibleTab loop and the CDP frames. */
  stats(): CaptureStats {
    return { ...this.cdp.addStats(this.loop.stats()), droppedByReason: this.gate.droppedByReason() };
  }

  // ---- what the browser reports ----

  /** The sensitive regions the top document of a tab reported. */
  updateRegions(tabId: number, report: SensitiveRectsMessage): void {
    const { first, awaited } = this.gate.update(tabId, report);
    // A frame dropped for want of these regions is taken again now. So is a new page's first frame
    // (none could be stored before its first report, and an agent that fails half a second after a
    // navigation needs one): a screencasting tab gets a screenshot at once, since the page reports
    // after its first paint, whose screencast frame is then `stale-report` and a still page sends no
    // other. A page reporting afresh otherwise (regions forgotten, painting as usual) gets one unless
    // its screencast sends a frame within `FIRST_REPORT_SILENCE_MS`. One the capture loop records (no
    // debugger session yet: a new tab) goes to the front of the loop (skipped if not visible); its
    // screencast, when it starts, takes the frame still owed (`screencastStarted`).
    if (awaited) this.retake(tabId);
    else if (!first || !this.capturing || !this.recordsTab(tabId)) return;
    else if (this.sourceOf(tabId) !== 'screencast') this.loop.requestCapture(tabId);
    else if (this.firstFrames.owed(tabId)) this.retake(tabId);
    // Not spaced from the last screenshot: that one showed the page before. Checked at its own time
    // whatever check is pending (a click's): a frame from before the report does not count.
    else this.shots.expectFreshFrame(tabId, FIRST_REPORT_SILENCE_MS, 0);
  }

  /**
   * Takes a frame of the tab now, by whichever way is open: the capture loop where it records the
   * tab (no screencast) and the tab is visible, or while it has no debugger session yet (a new tab:
   * the loop captures it if it is its window's visible tab); else a CDP screenshot.
   */
  private retake(tabId: number, droppedAt?: number): void {
    if (!this.capturing || !this.recordsTab(tabId)) return;
    const screenshots = this.ports.screencast !== undefined && this.ports.debuggerState(tabId).attached;
    if (this.loopRecords(tabId) && (this.isVisible(tabId) || !screenshots)) this.loop.requestCapture(tabId);
    // Not spaced from the last screenshot (the page before, or a window since resized); spaced from
    // the last retake only while retakes keep being dropped.
    else this.shots.retake(tabId, this.gate.latestFrameAt(tabId), droppedAt);
  }

  /** A tab started loading a new document: its sensitive regions are unknown until it reports. */
  handleNavigation(tabId: number): void {
    this.gate.navigated(tabId);
    this.shots.newDocument(tabId);
    this.firstFrames.navigated(tabId);
  }

  /**
   * A frame inside the tab's page loaded a document (its content script connected): the tab's regions
   * are unknown until its top document reports again, unless that document was seen before or
   * connects `again` (see `MaskGate.subframeLoaded`).
   */
  handleSubframeLoad(tabId: number, documentId: string | null, again = false): void {
    this.gate.subframeLoaded(tabId, documentId, again);
  }

  /** The debugger session of a tab is ready: its frames may come from the screencast now. */
  async handleDebuggerAttached(): Promise<void> {
    await this.cast.sync();
  }

  /** The debugger session of a tab is gone (closed tab, or the user detached it): back to captureVisibleTab. */
  handleDebuggerDetached(tabId: number): void {
    this.hold.end(tabId);
    // A new session brings the "started debugging" bar back: its first frame is a first frame again.
    this.gate.forgetShown(tabId);
    this.cast.forget(tabId);
    this.throttle.forget(tabId);
  }

  /** A `Page.screencastFrame` event: acknowledged at once, offered to the throttle. */
  handleScreencastFrame(tabId: number, params: Record<string, unknown> | undefined): void {
    const now = this.ports.clock.now();
    const { sessionId, data, shown, takenAt } = parseScreencastFrame(params, now);
    // Acknowledge first: the renderer sends nothing more until it is.
    if (sessionId !== undefined) void this.ports.screencast?.ack(tabId, sessionId).catch(() => undefined);
    if (data === undefined || !this.cast.isCasting(tabId) || !this.recordsTab(tabId)) return;
    this.shots.noteCastFrame(tabId, now);
    if (shown) this.gate.noteShown(tabId, shown);
    // The picture itself is its key: a frame differs from the last one if any of its bytes does (a
    // digit of an error message changed may leave the JPEG as long as before).
    this.throttle.offer(tabId, now, data, { data, shown, takenAt });
  }

  /**
   * The tab left the recording scope: its screencast, burst and pending screenshots end (its
   * sensitive regions are kept, should it come back). Its debugger session closes next.
   */
  leaveTab(tabId: number): void {
    this.handleDebuggerDetached(tabId);
    this.shots.forget(tabId);
  }

  /** Forgets everything about a closed tab: each part's state and timers. */
  forgetTab(tabId: number): void {
    this.firstFrames.forget(tabId);
    this.shots.forget(tabId);
    this.cast.forget(tabId);
    this.throttle.forget(tabId);
    this.gate.forget(tabId);
    this.hold.forget(tabId);
  }

  /**
   * A step of a tab (an observed action or navigation, or the agent's own step), at its own time
   * `at`. In `auto` mode an `action` may start or continue a burst (see `BurstHold.duringBurst`). With
   * `capture` (the `captureOnAction` setting) a frame is taken right after it: a screencasting tab
   * repaints by itself (or, when it sends nothing soon after, gets a CDP screenshot); the visible tab
   * of a window goes to the front of the capture loop; any other tab (not visible) gets a CDP screenshot.
   */
  handleAction(tabId: number, at: number, { capture, action }: { capture: boolean; action: boolean }): void {
    if (!this.capturing || !this.recordsTab(tabId)) return;
    const auto = this.settings.captureSource === 'auto' && this.cast.isCasting(tabId);
    if (auto && ((action && this.hold.noteAction(tabId, at)) || this.hold.isHeld(tabId))) return this.hold.duringBurst(tabId, capture);
    if (!capture) return;
    if (this.cast.isCasting(tabId)) return this.shots.expectCastFrame(tabId);
    if (this.isVisible(tabId) || !this.ports.screencast) {
      this.loop.requestCapture(tabId);
      return;
    }
    this.shots.spaced(tabId);
  }

  /**
   * A tab's screencast started. A page that is not repainting sends no first frame: a screenshot
   * stands in after `CAST_SILENCE_MS` (a frame of the page before it does not count); at once when
   * the tab's page has reported and has no frame yet (a new tab whose debugger session opened after
   * its first report).
   */
  private screencastStarted(tabId: number): void {
    if (this.firstFrames.owed(tabId)) this.retake(tabId);
    else this.shots.expectFreshFrame(tabId);
  }

  /** Whether the tab is in the recording scope. */
  private recordsTab(tabId: number): boolean {
    return this.ports.recordsTab?.(tabId) ?? true;
  }

  /** Whether the captureVisibleTab loop records the tab when it is visible: no screencast, or one held for a burst. */
  private loopRecords(tabId: number): boolean {
    return !this.cast.isCasting(tabId) || this.hold.isHeld(tabId);
  }

  /** Whether the tab is the visible tab of its window, as the capture loop last saw them. */
  private isVisible(tabId: number): boolean {
    return this.loop.targets().some((t) => t.tabId === tabId);
  }

  /** A held tab's burst is over: its screencast starts again, if it still casts and the settings still want it. */
  private resumeScreencast(tabId: number): void {
    if (!this.cast.isCasting(tabId) || !this.cast.wanted) return;
    // Frames came from elsewhere meanwhile: the first one of the screencast is no repeat, even if it looks the same.
    this.throttle.forgetPicture(tabId);
    void this.cast.start(tabId);
  }

  /**
   * A failure of the tab is being bundled: a burst it was in ends now, so the after-failure tail
   * (`postFailureSeconds`) is recorded from the screencast at `fps`. An agent that acts on soon
   * starts another one.
   */
  handleFailure(tabId: number): void {
    if (this.hold.isHeld(tabId)) this.hold.release(tabId);
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
    if (!this.capturing || !this.recordsTab(tabId) || (!this.cast.isCasting(tabId) && this.isVisible(tabId))) return;
    // `take` never rejects: only the wait can.
    await withTimeout(this.shots.take(tabId), waitMs, `the screenshot of tab ${tabId} for its bundle`).catch((error: unknown) => this.ports.log(`[afr] ${String(error)}`));
  }
}

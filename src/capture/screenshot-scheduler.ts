import type { Clock } from '../shared/clock';
import type { CdpFrame } from './cdp-frame-store';
import { addExpectation, settleCheck, type SilenceWatch } from './silence-watch';

/** A tab not visible in its window gets at most one CDP screenshot per this many ms of actions. */
export const SCREENSHOT_SPACING_MS = 500;
/**
 * A screencasting tab that sent no frame this long after an action is not being painted (a
 * background tab, or one whose compositor is idle in a headless window): it gets a screenshot.
 */
export const CAST_SILENCE_MS = 400;
/**
 * A tab whose frames keep being dropped (reports that do not fit them, a page too slow to answer)
 * gets a screenshot in place of a dropped one at most this often; the first is taken at once.
 */
export const RETAKE_SPACING_MS = 500;

/** CDP screenshots through the recorder's debugger session. */
export interface ScreenshotPort {
  /** A JPEG (base64) of a tab, visible or not. */
  screenshot(tabId: number, quality: number): Promise<string>;
}

/** What the screenshot scheduler needs of the frame sources that use it. */
export interface ScreenshotSchedulerContext {
  clock: Clock;
  /** The debugger session's screenshots; without them none is taken. */
  screencast: ScreenshotPort | undefined;
  debuggerState(tabId: number): { attached: boolean };
  log(message: string): void;
  /** Whether frames are recorded now. */
  capturing(): boolean;
  jpegQuality(): number;
  /** Whether the tab's frames come from its screencast now (running, not held for a burst). */
  casts(tabId: number): boolean;
  /** Stores a CDP screenshot that arrived at `ts`; resolves once it is stored or dropped. */
  store(tabId: number, ts: number, frame: CdpFrame): Promise<void>;
}

/**
 * When a tab gets a CDP screenshot: after its actions when nothing else shows them (a tab not
 * visible, one in a burst), spaced so a script acting fast does not pay for one per action; and
 * when its screencast stays silent after it should have sent a frame.
 */
export class ScreenshotScheduler {
  /** When each tab's latest screenshot was asked for. */
  private readonly lastScreenshot = new Map<number, number>();
  /** The screenshot due after a tab's latest action (spaced, so it may wait): a tab in a burst, or one not visible. */
  private readonly dueShots = new Map<number, { at: number; timer: ReturnType<typeof setTimeout> }>();
  /** When each screencasting tab last sent a frame, and what it is expected to send (see `expectCastFrame`). */
  private readonly lastCastFrameAt = new Map<number, number>();
  private readonly silenceWatches = new Map<number, { watch: SilenceWatch; timer: ReturnType<typeof setTimeout> }>();
  /** When each tab's latest retake was due, until a frame of it is stored or it navigates (see `retake`). */
  private readonly lastRetake = new Map<number, number>();

  constructor(private readonly context: ScreenshotSchedulerContext) {}

  /** A screencast frame of the tab arrived at `at`: it is being painted. */
  noteCastFrame(tabId: number, at: number): void {
    this.lastCastFrameAt.set(tabId, at);
  }

  /**
   * A CDP screenshot of a tab with a debugger session after its action, at most one per `spacingMs`:
   * one asked for sooner is taken when the spacing allows, and shows every action since. One already
   * due by then shows this action too; one due later is taken at this one's time instead.
   */
  spaced(tabId: number, spacingMs = SCREENSHOT_SPACING_MS): void {
    this.shootAt(tabId, (this.lastScreenshot.get(tabId) ?? -Infinity) + spacingMs);
  }

  /**
   * A screenshot in place of a frame of the tab that was dropped (its masks were not known yet, or it
   * was taken at `droppedAt`, before the page's report): at once, unless the last one taken in place
   * of a dropped frame brought no stored frame either (none stored since, `latestStoredAt`): then
   * `RETAKE_SPACING_MS` after it, so a page whose frames keep being dropped does not get one
   * screenshot per report. None when a screenshot asked after the dropped frame is on its way or
   * stored (dropped in turn, it is taken again itself). Not spaced from other screenshots: the last
   * one showed the page before.
   */
  retake(tabId: number, latestStoredAt: number | undefined, droppedAt?: number): void {
    if (droppedAt !== undefined && (this.lastScreenshot.get(tabId) ?? -Infinity) > droppedAt) return;
    const last = this.lastRetake.get(tabId);
    const stillDropping = last !== undefined && (latestStoredAt ?? -Infinity) < last;
    const at = Math.max(this.context.clock.now(), stillDropping ? last + RETAKE_SPACING_MS : -Infinity);
    const due = this.dueShots.get(tabId);
    if (due && due.at <= at) return; // the one due shows the page as well
    this.lastRetake.set(tabId, at);
    this.shootAt(tabId, at);
  }

  /** The tab shows a new document: its first retake is not spaced from the page before's. */
  newDocument(tabId: number): void {
    this.lastRetake.delete(tabId);
  }

  /** A screenshot at `at` (now if past), unless one is due by then: that one shows the same. */
  private shootAt(tabId: number, at: number): void {
    const due = this.dueShots.get(tabId);
    if (due && due.at <= at) return;
    this.cancelDue(tabId);
    const wait = at - this.context.clock.now();
    if (wait <= 0) return void this.take(tabId);
    const shoot = () => {
      this.dueShots.delete(tabId);
      if (this.context.capturing()) void this.take(tabId);
    };
    this.dueShots.set(tabId, { at, timer: setTimeout(shoot, wait) });
  }

  /** A CDP screenshot, stored like any frame; resolves once it is stored (or failed, logged). */
  take(tabId: number): Promise<void> {
    const port = this.context.screencast;
    if (!this.context.debuggerState(tabId).attached || !port) return Promise.resolve();
    const takenAt = this.context.clock.now();
    this.lastScreenshot.set(tabId, takenAt);
    return port
      .screenshot(tabId, this.context.jpegQuality())
      .then((data) => this.context.store(tabId, this.context.clock.now(), { data, takenAt }))
      .catch((error: unknown) => this.context.log(`[afr] screenshot of tab ${tabId} failed: ${String(error)}`));
  }

  /**
   * The screencasting tab should send a frame soon after an action: if none comes within `silenceMs`
   * (default `CAST_SILENCE_MS`), nothing is being painted (a still page, a background tab, an idle
   * compositor in a headless window), and it gets a screenshot, `spacingMs` from its last one. A
   * check already pending covers it (see `addExpectation`).
   */
  expectCastFrame(tabId: number, silenceMs = CAST_SILENCE_MS, spacingMs = SCREENSHOT_SPACING_MS): void {
    this.expect(tabId, silenceMs, spacingMs, false);
  }

  /**
   * As `expectCastFrame`, for a frame only the screencast's next paint can give (it started, or the
   * tab's new page reported): only a frame or screenshot from now on meets it, and it is checked at
   * its own time, whatever check is pending: a frame of the page before does not stand for the new one.
   */
  expectFreshFrame(tabId: number, silenceMs = CAST_SILENCE_MS, spacingMs = SCREENSHOT_SPACING_MS): void {
    this.expect(tabId, silenceMs, spacingMs, true);
  }

  private expect(tabId: number, silenceMs: number, spacingMs: number, ownStart: boolean): void {
    const now = this.context.clock.now();
    const pending = this.silenceWatches.get(tabId);
    const watch = addExpectation(pending?.watch, { since: now, due: now + silenceMs, spacingMs }, ownStart);
    if (pending?.watch === watch) return;
    this.arm(tabId, watch);
  }

  /** Times the tab's check of `watch` (in place of the one pending). */
  private arm(tabId: number, watch: SilenceWatch): void {
    clearTimeout(this.silenceWatches.get(tabId)?.timer);
    const check = () => {
      this.silenceWatches.delete(tabId);
      if (!this.context.capturing() || !this.context.casts(tabId)) return;
      // A screenshot taken meanwhile (a retake, the failure's frame) shows it as well.
      const latest = Math.max(this.lastCastFrameAt.get(tabId) ?? -Infinity, this.lastScreenshot.get(tabId) ?? -Infinity);
      const outcome = settleCheck(watch, latest);
      if (outcome && 'screenshot' in outcome) this.spaced(tabId, outcome.screenshot);
      else if (outcome) this.arm(tabId, { check: outcome.then });
    };
    this.silenceWatches.set(tabId, { watch, timer: setTimeout(check, Math.max(0, watch.check.due - this.context.clock.now())) });
  }

  /** No frame is expected of the tab's screencast any more (it stops): no screenshot stands in for one. */
  cancelSilenceCheck(tabId: number): void {
    clearTimeout(this.silenceWatches.get(tabId)?.timer);
    this.silenceWatches.delete(tabId);
  }

  /** The screenshot due after the tab's actions is not taken (its burst ended, or its session did). */
  cancelDue(tabId: number): void {
    clearTimeout(this.dueShots.get(tabId)?.timer);
    this.dueShots.delete(tabId);
  }

  forget(tabId: number): void {
    this.cancelSilenceCheck(tabId);
    this.cancelDue(tabId);
    this.lastCastFrameAt.delete(tabId);
    this.lastScreenshot.delete(tabId);
    this.lastRetake.delete(tabId);
  }
}

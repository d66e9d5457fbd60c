import type { Clock } from '../shared/clock';
import type { CdpFrame } from './cdp-frame-store';

/** A tab not visible in its window gets at most one CDP screenshot per this many ms of actions. */
export const SCREENSHOT_SPACING_MS = 500;
/**
 * A screencasting tab that sent no frame this long after an action is not being painted (a
 * background tab, or one whose compositor is idle in a headless window): it gets a screenshot.
 */
export const CAST_SILENCE_MS = 400;

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
  private readonly dueShots = new Map<number, ReturnType<typeof setTimeout>>();
  /** When each screencasting tab last sent a frame, and the pending check after an action. */
  private readonly lastCastFrameAt = new Map<number, number>();
  private readonly silenceChecks = new Map<number, ReturnType<typeof setTimeout>>();

  constructor(private readonly context: ScreenshotSchedulerContext) {}

  /** A screencast frame of the tab arrived at `at`: it is being painted. */
  noteCastFrame(tabId: number, at: number): void {
    this.lastCastFrameAt.set(tabId, at);
  }

  /**
   * A CDP screenshot of a tab with a debugger session after its action, at most one per `spacingMs`:
   * one asked for sooner is taken when the spacing allows, and shows every action since.
   */
  spaced(tabId: number, spacingMs = SCREENSHOT_SPACING_MS): void {
    if (this.dueShots.has(tabId)) return; // the due screenshot will show this action too
    const wait = (this.lastScreenshot.get(tabId) ?? -Infinity) + spacingMs - this.context.clock.now();
    if (wait <= 0) return void this.take(tabId);
    const shoot = () => {
      this.dueShots.delete(tabId);
      if (this.context.capturing()) void this.take(tabId);
    };
    this.dueShots.set(tabId, setTimeout(shoot, wait));
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
   * The screencasting tab should send a frame soon (after an action, once its screencast started,
   * once its new page reported): if none comes within `silenceMs` (default `CAST_SILENCE_MS`), nothing is being painted (a
   * still page, a background tab, an idle compositor in a headless window), and it gets a screenshot.
   */
  expectCastFrame(tabId: number, silenceMs = CAST_SILENCE_MS, spacingMs = SCREENSHOT_SPACING_MS): void {
    if (this.silenceChecks.has(tabId)) return;
    const since = this.context.clock.now();
    const check = () => {
      this.silenceChecks.delete(tabId);
      // A screenshot taken meanwhile (a retake, the failure's frame) shows it as well.
      const latest = Math.max(this.lastCastFrameAt.get(tabId) ?? -Infinity, this.lastScreenshot.get(tabId) ?? -Infinity);
      if (this.context.capturing() && this.context.casts(tabId) && latest < since) this.spaced(tabId, spacingMs);
    };
    this.silenceChecks.set(tabId, setTimeout(check, silenceMs));
  }

  /** No frame is expected of the tab's screencast any more (it stops): no screenshot stands in for one. */
  cancelSilenceCheck(tabId: number): void {
    clearTimeout(this.silenceChecks.get(tabId));
    this.silenceChecks.delete(tabId);
  }

  /** The screenshot due after the tab's actions is not taken (its burst ended, or its session did). */
  cancelDue(tabId: number): void {
    clearTimeout(this.dueShots.get(tabId));
    this.dueShots.delete(tabId);
  }

  forget(tabId: number): void {
    this.cancelSilenceCheck(tabId);
    this.cancelDue(tabId);
    this.lastCastFrameAt.delete(tabId);
    this.lastScreenshot.delete(tabId);
  }
}

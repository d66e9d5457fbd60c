import type { Clock } from '../shared/clock';
import { ActionBursts } from './action-bursts';

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

/** What the burst hold needs of the frame sources that use it. */
export interface BurstHoldContext {
  clock: Clock;
  /** When the tab's latest frame to be stored was taken, whatever its source. */
  latestFrameAt(tabId: number): number | undefined;
  /** The tab's burst ended or was forgotten: the screenshot due after its actions is not taken. */
  ended(tabId: number): void;
  /** The tab's burst is over (quiet long enough, or a failure of it bundled): its screencast may start again. */
  released(tabId: number): void;
  /** Whether the tab is the visible tab of its window (the captureVisibleTab loop may record it). */
  isVisible(tabId: number): boolean;
  /** The tab's screencast stops for its burst: no frame is expected of it meanwhile. */
  stopScreencast(tabId: number): void;
  /** Has the captureVisibleTab loop take a frame of the tab next. */
  requestCapture(tabId: number): void;
  /** A CDP screenshot of the tab after its action, at most one per `spacingMs`. */
  screenshot(tabId: number, spacingMs: number): void;
}

/**
 * Screencasting tabs whose screencast is stopped while the agent acts in a burst (`auto` mode, see
 * `ActionBursts`), and the wait for each burst's end, when the screencast starts again.
 */
export class BurstHold {
  private readonly bursts = new ActionBursts(BURST_TIMES);
  /** Screencasting tabs whose screencast is stopped for a burst, with the check for its end. */
  private readonly held = new Map<number, ReturnType<typeof setTimeout>>();

  constructor(private readonly context: BurstHoldContext) {}

  /** Notes an action of the tab at `at` (its own time); true when the tab is in a burst with it. */
  noteAction(tabId: number, at: number): boolean {
    return this.bursts.noteAction(tabId, at);
  }

  /** Whether the tab's screencast is held for a burst. */
  isHeld(tabId: number): boolean {
    return this.held.has(tabId);
  }

  /** The tabs held now. */
  heldTabs(): number[] {
    return [...this.held.keys()];
  }

  /**
   * An action of a screencasting tab in a burst: its screencast stops until the burst is over. A
   * visible tab is recorded by the captureVisibleTab loop meanwhile (it copies the window as it is,
   * where a CDP screenshot makes the page paint a frame for it); with `capture`, another tab gets a
   * CDP screenshot after its actions, `BURST_SHOT_SPACING_MS` apart, the last action's always.
   */
  duringBurst(tabId: number, capture: boolean): void {
    if (!this.held.has(tabId)) {
      // Without frames after actions a hidden tab would get none in the burst: its screencast goes on.
      if (!capture && !this.context.isVisible(tabId)) return;
      this.awaitBurstEnd(tabId);
      this.context.stopScreencast(tabId);
    }
    if (!capture) return;
    // The visible tab: the loop's rounds take its frames, spaced; one is taken now if it is due.
    if (this.context.isVisible(tabId)) return void (this.frameDue(tabId) && this.context.requestCapture(tabId));
    this.context.screenshot(tabId, BURST_SHOT_SPACING_MS);
  }

  /** Holds the tab until its burst has been quiet long enough, then releases it. */
  private awaitBurstEnd(tabId: number): void {
    const check = () => {
      const left = this.bursts.quietIn(tabId, this.context.clock.now());
      if (left > 0) {
        this.held.set(tabId, setTimeout(check, left));
        return;
      }
      this.release(tabId);
    };
    this.held.set(tabId, setTimeout(check, this.bursts.quietIn(tabId, this.context.clock.now())));
  }

  /** Ends a held tab's burst and lets its screencast start again. */
  release(tabId: number): void {
    this.end(tabId);
    this.context.released(tabId);
  }

  /** Forgets the tab's burst: its timers and the hold (the caller starts or stops its screencast). */
  end(tabId: number): void {
    clearTimeout(this.held.get(tabId));
    this.held.delete(tabId);
    this.context.ended(tabId);
    this.bursts.end(tabId);
  }

  /** Whether a tab held for a burst may have its next captureVisibleTab frame: `BURST_FRAME_SPACING_MS` after its latest of any source. */
  frameDue(tabId: number): boolean {
    return this.context.clock.now() - (this.context.latestFrameAt(tabId) ?? -Infinity) >= BURST_FRAME_SPACING_MS;
  }

  forget(tabId: number): void {
    this.end(tabId);
    this.bursts.forget(tabId);
  }
}

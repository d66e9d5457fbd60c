export interface ActionBurstTimes {
  /** Steps this close to the first step of an action are the same action (a click and the submit it causes). */
  coalesceMs: number;
  /** An action starting this soon after the previous one ended starts a burst. */
  gapMs: number;
  /** A burst ends this long after its last action. */
  quietMs: number;
}

/**
 * Tells, per tab, an agent acting in a burst (a script: its next action starts within `gapMs` of the
 * last) from one that waits between actions (a model thinking, an operator, a script waiting for the
 * page). One action often yields several steps within a few ms (a click and the form submit it causes,
 * a typed value and the Enter after it, the agent's own report of the click): steps within
 * `coalesceMs` of an action's first step belong to it. A burst lasts until `quietMs` pass without a step.
 *
 * The recorder's `auto` capture uses it: a running screencast makes Chromium copy out every frame the
 * page paints, which a CPU-bound script pays for; during a burst, captureVisibleTab or screenshots
 * after actions are cheaper and still show each action's result.
 */
export class ActionBursts {
  private readonly actions = new Map<number, { start: number; end: number }>();
  private readonly bursting = new Set<number>();

  constructor(private readonly times: ActionBurstTimes) {
    if (times.quietMs < times.gapMs) throw new Error('a burst must last at least as long as the gap that starts it');
  }

  /** Notes a step of the tab at `at` (its own time); true when the tab is in a burst with it. */
  noteAction(tabId: number, at: number): boolean {
    const last = this.actions.get(tabId);
    // Steps may arrive a little out of order (several frames of a page): an earlier one is part of the last action.
    if (last && at - last.start < this.times.coalesceMs) {
      last.end = Math.max(last.end, at);
      return this.bursting.has(tabId);
    }
    if (last && at - last.end < this.times.gapMs) this.bursting.add(tabId);
    this.actions.set(tabId, { start: at, end: at });
    return this.bursting.has(tabId);
  }

  inBurst(tabId: number): boolean {
    return this.bursting.has(tabId);
  }

  /** Milliseconds from `now` until the tab's burst is over; 0 when it is over or there is none. */
  quietIn(tabId: number, now: number): number {
    if (!this.bursting.has(tabId)) return 0;
    return Math.max(0, (this.actions.get(tabId)?.end ?? now) + this.times.quietMs - now);
  }

  /** Ends the tab's burst (its quiet time passed); its next action starts none by itself. */
  end(tabId: number): void {
    this.bursting.delete(tabId);
  }

  forget(tabId: number): void {
    this.bursting.delete(tabId);
    this.actions.delete(tabId);
  }
}

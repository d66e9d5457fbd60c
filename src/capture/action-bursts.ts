/**
 * Tells, per tab, an agent acting in a burst (a script: its next action comes within `gapMs` of the
 * last) from one that waits between actions (a model thinking, an operator, a script waiting for the
 * page). A burst lasts until `quietMs` pass without an action.
 *
 * The recorder's `auto` capture uses it: a running screencast makes Chromium copy out every frame the
 * page paints, which a CPU-bound script pays for; during a burst, screenshots after actions are
 * cheaper and show each action's result.
 */
export class ActionBursts {
  private readonly lastAction = new Map<number, number>();
  private readonly bursting = new Set<number>();

  constructor(
    private readonly gapMs: number,
    private readonly quietMs: number,
  ) {
    if (quietMs < gapMs) throw new Error('a burst must last at least as long as the gap that starts it');
  }

  /** Notes an action of the tab at `now`; true when the tab is in a burst with it. */
  noteAction(tabId: number, now: number): boolean {
    const last = this.lastAction.get(tabId);
    this.lastAction.set(tabId, now);
    if (last !== undefined && now - last < this.gapMs) this.bursting.add(tabId);
    return this.bursting.has(tabId);
  }

  inBurst(tabId: number): boolean {
    return this.bursting.has(tabId);
  }

  /** Milliseconds from `now` until the tab's burst is over; 0 when it is over or there is none. */
  quietIn(tabId: number, now: number): number {
    if (!this.bursting.has(tabId)) return 0;
    return Math.max(0, (this.lastAction.get(tabId) ?? now) + this.quietMs - now);
  }

  /** Ends the tab's burst (its quiet time passed); its next action starts none by itself. */
  end(tabId: number): void {
    this.bursting.delete(tabId);
  }

  forget(tabId: number): void {
    this.bursting.delete(tabId);
    this.lastAction.delete(tabId);
  }
}

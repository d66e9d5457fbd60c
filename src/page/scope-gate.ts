/** Most messages held while the frame does not know yet whether its tab is recorded. */
export const MAX_HELD_MESSAGES = 200;

/** Whether this frame's tab is recorded: unknown until the background says. */
export type ScopeState = 'unknown' | 'recorded' | 'outside';

export interface ScopeGate {
  /** Passes a message on while the tab is recorded, holds it while that is unknown, drops it outside the scope. */
  send(message: unknown): void;
  /** The background said whether the tab is recorded: held messages go (or are dropped), observers start or stop. */
  told(recorded: boolean): void;
  readonly state: ScopeState;
}

export interface ScopeGateHooks {
  /** The tab entered the scope, or was found in it (observers already running are kept): observe. */
  enter(): void;
  /** The tab left the scope (or was found outside it): stop observing. */
  leave(): void;
}

/**
 * A content script's view of the recording scope (README "Recording scope"). A frame starts observing
 * at once, holding what it would send until the background says whether its tab is recorded (the port's
 * first message): then what was held goes, or is dropped and the observers stop, so a tab outside the
 * scope sends nothing and runs no observers. The background tells the tab again whenever it enters or
 * leaves the scope.
 * @example const gate = createScopeGate((m) => batcher.send(m), { enter: startObservers, leave: stopObservers });
 */
export function createScopeGate(deliver: (message: unknown) => void, hooks: ScopeGateHooks): ScopeGate {
  let state: ScopeState = 'unknown';
  let held: unknown[] = [];
  return {
    get state() {
      return state;
    },
    send(message) {
      if (state === 'recorded') deliver(message);
      // The oldest go first: a page that floods before the answer comes must not grow this without end.
      else if (state === 'unknown' && held.push(message) > MAX_HELD_MESSAGES) held.shift();
    },
    told(recorded) {
      const next: ScopeState = recorded ? 'recorded' : 'outside';
      if (next === state) return;
      state = next;
      const waiting = held;
      held = [];
      if (recorded) {
        hooks.enter();
        waiting.forEach(deliver);
      } else hooks.leave();
    },
  };
}

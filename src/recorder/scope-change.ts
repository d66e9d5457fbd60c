/** Who hears of a tab entering or leaving the recording scope. */
export interface ScopeChangePorts {
  /** The recorder's state changed (the popup and the badge show which tabs are recorded). */
  stateChanged?(): void;
  /** Opens the tab's debugger session. */
  watchTab(tabId: number): void;
  /** Closes the tab's debugger session. */
  unwatchTab?(tabId: number): void;
}

/**
 * A tab entered the scope (its debugger session is opened) or left it (its recording stops, the
 * session closes).
 */
export function scopeChanged(ports: ScopeChangePorts, frames: { leaveTab(tabId: number): void }, tabId: number, recorded: boolean): void {
  ports.stateChanged?.();
  if (recorded) {
    ports.watchTab(tabId);
    return;
  }
  frames.leaveTab(tabId);
  ports.unwatchTab?.(tabId);
}

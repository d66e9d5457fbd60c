/** The parts that keep something of a tab. */
export interface TabKeepers {
  signals: { forget(tabId: number): void };
  messages: { forget(tabId: number): void };
  failures: { forget(tabId: number): void };
  guard: { forget(tabId: number): void };
  run: { forget(tabId: number): Promise<void> };
  scope: { forget(tabId: number): Promise<void> };
  frames: { forgetTab(tabId: number): void };
  ring: { forgetTab(tabId: number): void };
}

/**
 * A tab was closed: what each part kept of it goes, and its frames once they are past the window (no
 * anchor kept). What is kept in storage (its page run, its place in the scope) goes in the background:
 * a storage failure is logged.
 */
export function forgetClosedTab(parts: TabKeepers, tabId: number, log: (message: string) => void): void {
  parts.signals.forget(tabId);
  parts.messages.forget(tabId);
  parts.failures.forget(tabId);
  parts.guard.forget(tabId);
  void parts.run.forget(tabId).catch((error: unknown) => log(`[afr] page run of closed tab ${tabId} not forgotten: ${String(error)}`));
  void parts.scope.forget(tabId).catch((error: unknown) => log(`[afr] scope of closed tab ${tabId} not forgotten: ${String(error)}`));
  parts.frames.forgetTab(tabId);
  parts.ring.forgetTab(tabId);
}

import type { CdpExceptionDetails } from '../signals/normalize-signal';

/** The only CDP commands the recorder sends (the debugger is a powerful permission: keep it narrow). */
const ALLOWED_COMMANDS = new Set(['Runtime.enable']);

export interface DebuggerEvents {
  onException(tabId: number, details: CdpExceptionDetails): void;
  onDetached(tabId: number, reason: string): void;
}

export interface DebuggerTabState {
  attached: boolean;
  error: string | null;
}

/**
 * One `chrome.debugger` session per recorded tab, used for `Runtime.exceptionThrown`. It co-exists
 * with an automation client's own CDP connection. A user who closes the "started debugging" infobar
 * detaches it (`canceled_by_user`); the recorder then relies on the page-level fallback.
 */
export class DebuggerPort {
  private readonly state = new Map<number, DebuggerTabState>();
  private readonly attaching = new Map<number, Promise<void>>();

  constructor(private readonly events: DebuggerEvents) {
    chrome.debugger.onEvent.addListener((source, method, params) => {
      if (source.tabId === undefined || method !== 'Runtime.exceptionThrown') return;
      const details = (params as { exceptionDetails?: CdpExceptionDetails } | undefined)?.exceptionDetails;
      if (details) this.events.onException(source.tabId, details);
    });
    chrome.debugger.onDetach.addListener((source, reason) => {
      if (source.tabId === undefined) return;
      this.state.set(source.tabId, { attached: false, error: `detached: ${reason}` });
      this.events.onDetached(source.tabId, reason);
    });
  }

  stateOf(tabId: number | null): DebuggerTabState {
    return (tabId !== null && this.state.get(tabId)) || { attached: false, error: null };
  }

  isAttached(tabId: number): boolean {
    return this.state.get(tabId)?.attached === true;
  }

  /** Attaches once per tab; a refusal is remembered (not retried in a loop) and reported in status. */
  ensureAttached(tabId: number): Promise<void> {
    const known = this.state.get(tabId);
    if (known?.attached || known?.error?.includes('canceled_by_user')) return Promise.resolve();
    const pending = this.attaching.get(tabId);
    if (pending) return pending;
    const attempt = (async () => {
      try {
        await chrome.debugger.attach({ tabId }, '1.3');
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        // Someone else's debugger session on the same client id, or one left from before a restart.
        if (!/already attached/i.test(message)) {
          this.state.set(tabId, { attached: false, error: message });
          return;
        }
      }
      try {
        await this.send(tabId, 'Runtime.enable');
        this.state.set(tabId, { attached: true, error: null });
      } catch (error) {
        this.state.set(tabId, { attached: false, error: error instanceof Error ? error.message : String(error) });
      }
    })().finally(() => this.attaching.delete(tabId));
    this.attaching.set(tabId, attempt);
    return attempt;
  }

  forget(tabId: number): void {
    this.state.delete(tabId);
  }

  private async send(tabId: number, method: string): Promise<void> {
    if (!ALLOWED_COMMANDS.has(method)) throw new Error(`CDP command ${method} is not allowed`);
    await chrome.debugger.sendCommand({ tabId }, method);
  }
}

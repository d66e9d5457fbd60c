import { browser } from 'wxt/browser';
import { CDP_ENABLE_COMMANDS } from '../signals/cdp-signals';
import { NETWORK_ENABLE_PARAMS } from '../network/network-enable';
import type { ResponseBody } from '../network/ports';
import { errorMessage } from '../shared/error-message';

/** The only CDP commands the recorder sends (the debugger is a powerful permission: keep it narrow). */
const ALLOWED_COMMANDS = new Set<string>([
  ...CDP_ENABLE_COMMANDS,
  'Page.startScreencast',
  'Page.stopScreencast',
  'Page.screencastFrameAck',
  'Page.captureScreenshot',
  // Bodies for `network.har`, read once a response ends (`src/network/network-log.ts`).
  'Network.getResponseBody',
]);

export interface DebuggerEvents {
  /** Any CDP event of a recorded tab. */
  onEvent(tabId: number, method: string, params: Record<string, unknown> | undefined): void;
  onDetached(tabId: number, reason: string): void;
  /** The session is ready (domains enabled). */
  onAttached?(tabId: number): void;
}

/** Firefox has no `debugger` API (its `browser` lacks it, though the types, made from Chrome's, have it). */
const hasDebugger = () => 'debugger' in browser;
const NO_DEBUGGER = 'this browser has no chrome.debugger (Firefox): page-level signals and captureVisibleTab only';

export interface DebuggerTabState {
  attached: boolean;
  error: string | null;
}

/**
 * One `chrome.debugger` session per recorded tab, for the DevTools protocol signals (exceptions,
 * console errors, network failures, crashes, dialogs). It co-exists with an automation client's own
 * CDP connection. A user who closes the "started debugging" infobar detaches it (`canceled_by_user`);
 * the recorder then relies on page-level signals for that tab and says so in `status()`.
 */
export class DebuggerPort {
  private readonly state = new Map<number, DebuggerTabState>();
  private readonly attaching = new Map<number, Promise<void>>();

  constructor(private readonly events: DebuggerEvents) {
    if (!hasDebugger()) return;
    browser.debugger.onEvent.addListener((source, method, params) => {
      if (source.tabId !== undefined) this.events.onEvent(source.tabId, method, params as Record<string, unknown> | undefined);
    });
    browser.debugger.onDetach.addListener((source, reason) => {
      if (source.tabId === undefined) return;
      this.state.set(source.tabId, { attached: false, error: `detached: ${reason}` });
      this.events.onDetached(source.tabId, reason);
    });
  }

  stateOf(tabId: number | null): DebuggerTabState {
    return (tabId !== null && this.state.get(tabId)) || { attached: false, error: null };
  }

  /**
   * Attaches once per tab. A refusal is remembered (not retried in a loop) and reported in status;
   * a user's detach is respected for the rest of the tab's life.
   */
  ensureAttached(tabId: number): Promise<void> {
    const known = this.state.get(tabId);
    if (known?.attached || known?.error?.includes('canceled_by_user')) return Promise.resolve();
    const pending = this.attaching.get(tabId);
    if (pending) return pending;
    if (!hasDebugger()) {
      this.state.set(tabId, { attached: false, error: NO_DEBUGGER });
      return Promise.resolve();
    }
    const attempt = (async () => {
      try {
        await browser.debugger.attach({ tabId }, '1.3');
      } catch (error) {
        const message = errorMessage(error);
        // One left from before a service worker restart is ours and still works.
        if (!/already attached/i.test(message)) {
          this.state.set(tabId, { attached: false, error: message });
          return;
        }
      }
      try {
        // Sent together, not each after the last one's answer: the session carries them in order, and a
        // new tab's screencast (its first frame) waits for them (one round trip instead of five).
        await Promise.all(CDP_ENABLE_COMMANDS.map((method) => this.send(tabId, method, method === 'Network.enable' ? NETWORK_ENABLE_PARAMS : undefined)));
        this.state.set(tabId, { attached: true, error: null });
        this.events.onAttached?.(tabId);
      } catch (error) {
        this.state.set(tabId, { attached: false, error: errorMessage(error) });
      }
    })().finally(() => this.attaching.delete(tabId));
    this.attaching.set(tabId, attempt);
    return attempt;
  }

  forget(tabId: number): void {
    this.state.delete(tabId);
  }

  /**
   * Closes the tab's session (the tab left the recording scope), one being opened included, or one
   * an earlier service worker left. A tab with none is left as it is. `onDetached` is not called:
   * Chrome reports only the detaches it makes itself.
   */
  async detach(tabId: number): Promise<void> {
    await this.attaching.get(tabId);
    // The person's "cancel" is still respected when the tab comes back into the scope.
    if (!this.state.get(tabId)?.error?.includes('canceled_by_user')) this.state.delete(tabId);
    if (hasDebugger()) await browser.debugger.detach({ tabId }).catch(() => undefined);
  }

  /** Tabs with a working session. */
  attachedTabs(): number[] {
    return [...this.state].filter(([, s]) => s.attached).map(([tabId]) => tabId);
  }

  /**
   * `Page.startScreencast`: JPEG frames of the tab whenever it repaints, each to be acknowledged.
   * Chromium copies every frame the page paints out of the compositor either way (the capturer behind
   * the screencast has a 10 ms minimum period; `everyNthFrame` and unacknowledged frames only drop
   * copies already made), but it encodes and sends only the frames it keeps: it is asked for about
   * `fps` of its ~60 a second (the throttle downstream keeps the pace exact). See
   * `content/browser/devtools/protocol/page_handler.cc`, `ShouldCaptureNextScreencastFrame`.
   */
  async startScreencast(tabId: number, options: { quality: number; maxWidth: number; maxHeight: number; fps: number }): Promise<void> {
    const { fps, ...rest } = options;
    await this.send(tabId, 'Page.startScreencast', { format: 'jpeg', everyNthFrame: Math.max(1, Math.floor(60 / fps)), ...rest });
  }

  async stopScreencast(tabId: number): Promise<void> {
    await this.send(tabId, 'Page.stopScreencast');
  }

  /** Without the ack the renderer sends no further frame. */
  async ackScreencastFrame(tabId: number, sessionId: number): Promise<void> {
    await this.send(tabId, 'Page.screencastFrameAck', { sessionId });
  }

  /** A JPEG of a tab that is not the visible one (base64). */
  async captureScreenshot(tabId: number, quality: number): Promise<string> {
    const result = (await this.send(tabId, 'Page.captureScreenshot', { format: 'jpeg', quality })) as { data?: string } | undefined;
    if (!result?.data) throw new Error('Page.captureScreenshot returned no image');
    return result.data;
  }

  /** A response body still in the session's buffer (`Network.getResponseBody`); rejects when Chrome no longer has it. */
  async responseBody(tabId: number, requestId: string): Promise<ResponseBody> {
    const result = (await this.send(tabId, 'Network.getResponseBody', { requestId })) as { body?: unknown; base64Encoded?: unknown } | undefined;
    if (typeof result?.body !== 'string') throw new Error('Network.getResponseBody returned no body');
    return { body: result.body, base64Encoded: result.base64Encoded === true };
  }

  /** Sends one of the allowed commands; resolves to its result. */
  private async send(tabId: number, method: string, params?: Record<string, unknown>): Promise<unknown> {
    if (!ALLOWED_COMMANDS.has(method)) throw new Error(`CDP command ${method} is not allowed`);
    return browser.debugger.sendCommand({ tabId }, method, params);
  }
}

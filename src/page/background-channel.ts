import { errorMessage } from '../shared/error-message';
/** The part of `chrome.runtime.Port` the channel uses. */
export interface PortLike {
  postMessage(message: unknown): void;
  disconnect(): void;
  onDisconnect: { addListener(listener: () => void): void };
}

/** Chrome's wording when the extension was reloaded or removed under a still-open page. */
export const CONTEXT_GONE = /context invalidated/i;

export interface BackgroundChannel {
  /** Posts a message; false when it could not be (the extension is gone, or the background unreachable). */
  send(message: unknown): boolean;
  /**
   * Lets the current port go; the next message opens a new one. For a page whose sender changed (a
   * prerendered page shown, one restored from the back/forward cache): a port keeps the frame id it
   * was opened with, and a cached page's port is closed under it.
   */
  reopen(): void;
  close(): void;
}

/**
 * A port the background drops after it was open this long went with a stopped service worker; one
 * dropped sooner was refused (or the worker stopped at once again), and is not reason to open another.
 */
export const STOPPED_PORT_MIN_LIFE_MS = 1_000;

export interface BackgroundChannelOptions {
  /**
   * The background dropped a port that had been open at least `STOPPED_PORT_MIN_LIFE_MS`: its service
   * worker stopped (Chrome ended it, or it crashed). Sending a message starts a new one.
   */
  onBackgroundStopped?: () => void;
  /** A clock in ms (default `Date.now`). */
  now?: () => number;
}

/**
 * One long-lived port from a content script to the background, opened on the first message and
 * again after the background let it go (a service worker restart): a message on an open port costs
 * one IPC, where `runtime.sendMessage` opens and closes a channel for each. `connect` throwing
 * "context invalidated" (the extension was reloaded) calls `onGone` once; the channel is then closed.
 * `connect` is told whether the background dropped the previous port (see `CONTENT_PORT_AGAIN_NAME`).
 * @example const channel = openBackgroundChannel((again) => chrome.runtime.connect({ name: again ? CONTENT_PORT_AGAIN_NAME : CONTENT_PORT_NAME }), stop);
 */
export function openBackgroundChannel(
  connect: (again: boolean) => PortLike,
  onGone: () => void,
  warn: (message: string) => void = () => {},
  { onBackgroundStopped, now = Date.now }: BackgroundChannelOptions = {},
): BackgroundChannel {
  let port: PortLike | null = null;
  let closed = false;
  /** The background dropped the last port after it was open a while (its worker stopped): the next one is the same document's again. */
  let dropped = false;
  let portOpenedAt = 0;

  const open = (): PortLike | null => {
    if (port) return port;
    try {
      const opened = connect(dropped);
      const openedAt = now();
      portOpenedAt = openedAt;
      dropped = false;
      opened.onDisconnect.addListener(() => {
        // Not a port this side let go (`reopen`, `close`): the background dropped it.
        if (port !== opened) return;
        port = null;
        if (closed || now() - openedAt < STOPPED_PORT_MIN_LIFE_MS) return;
        dropped = true;
        onBackgroundStopped?.();
      });
      port = opened;
      return port;
    } catch (error) {
      gone(error);
      return null;
    }
  };

  /** Lets the current port go (the next message opens a new one, not `again`: this side's choice). */
  const release = () => {
    const old = port;
    port = null;
    dropped = false;
    try {
      old?.disconnect();
    } catch {
      // Already gone.
    }
  };

  const gone = (error: unknown) => {
    if (CONTEXT_GONE.test(String(error))) {
      if (!closed) {
        closed = true;
        onGone();
      }
    } else warn(`could not reach the background: ${errorMessage(error)}`);
  };

  return {
    send(message) {
      if (closed) return false;
      // A port the background dropped without us hearing yet throws: open a new one and try once more.
      for (let attempt = 0; attempt < 2; attempt++) {
        const current = open();
        if (!current) return false;
        try {
          current.postMessage(message);
          return true;
        } catch (error) {
          // Dropped by the background (this side had not let it go): by a worker that stopped if it was open a while.
          const kept = now() - portOpenedAt >= STOPPED_PORT_MIN_LIFE_MS;
          release();
          dropped = kept;
          if (CONTEXT_GONE.test(String(error)) || attempt === 1) {
            gone(error);
            return false;
          }
        }
      }
      return false;
    },
    reopen: release,
    close() {
      closed = true;
      release();
    },
  };
}

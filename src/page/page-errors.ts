import { TokenBucket } from '../shared/token-bucket';
import { PAGE_ERROR_LIMITS } from '../../schemas/content-port';
import type { PageErrorSignalMessage } from '../../schemas/messages';

// This module is bundled into the page's own world: it imports nothing but types and constants.

/**
 * Source tag of what the MAIN-world forwarder posts to the isolated world. Distinct from the public
 * page protocol's tag so the page bridge never mistakes one for the other.
 */
export const PAGE_ERROR_SOURCE = 'agent-flight-recorder/page-error';


export type PageErrorKind = PageErrorSignalMessage['kind'];

/** What the forwarder posts: `{ source, kind, message, stack }`. */
export interface PageErrorPost {
  source: typeof PAGE_ERROR_SOURCE;
  kind: PageErrorKind;
  message: string;
  stack: string | null;
  /** When it was thrown (`Date.now()` in the page): the relay may run much later on a busy page. */
  ts: number;
}

/**
 * Runs in the page's own (MAIN) world at document_start: forwards uncaught errors and unhandled
 * rejections to the isolated world with `postMessage`. Every builtin it needs later is saved now,
 * before page scripts run and can replace them (Playwright's injected scripts do the same); a failure
 * here is swallowed, never thrown into the page. At most 20 posts at once, then 2 per second.
 */
export function installPageErrorForwarder(win: Window): () => void {
  const post = win.postMessage.bind(win);
  const listen = win.addEventListener.bind(win);
  const unlisten = win.removeEventListener.bind(win);
  const toText = String;
  const apply = Reflect.apply;
  const slice = String.prototype.slice;
  const now = Date.now;
  const bucket = new TokenBucket(20, 2, now());

  const cap = (s: string, n: number): string => (s.length > n ? (apply(slice, s, [0, n]) as string) : s);
  const text = (v: unknown): string => {
    try {
      return typeof v === 'string' ? v : toText(v);
    } catch {
      return '[unprintable value]';
    }
  };
  const stackOf = (v: unknown): string | null => {
    try {
      const stack: unknown = v !== null && typeof v === 'object' ? (v as { stack?: unknown }).stack : undefined;
      return typeof stack === 'string' ? cap(stack, PAGE_ERROR_LIMITS.stackChars) : null;
    } catch {
      return null;
    }
  };
  const forward = (kind: PageErrorKind, message: string, stack: string | null) => {
    if (!bucket.take(now())) return;
    const data: PageErrorPost = { source: PAGE_ERROR_SOURCE, kind, message: cap(message, PAGE_ERROR_LIMITS.messageChars), stack, ts: now() };
    post(data, '*');
  };

  const onError = (e: Event) => {
    try {
      const ev = e as ErrorEvent;
      forward('error', ev.message || text(ev.error), stackOf(ev.error));
    } catch {
      // Never let the recorder's own failure surface in the page.
    }
  };
  const onRejection = (e: Event) => {
    try {
      const reason = (e as PromiseRejectionEvent).reason;
      forward('unhandledrejection', text(reason), stackOf(reason));
    } catch {
      // As above.
    }
  };
  // Bubble phase on window: script errors arrive here, resource load errors (which do not bubble) do not.
  listen('error', onError);
  listen('unhandledrejection', onRejection);
  return () => {
    unlisten('error', onError);
    unlisten('unhandledrejection', onRejection);
  };
}

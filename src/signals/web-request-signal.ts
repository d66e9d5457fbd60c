import { WEB_REQUEST_TYPES } from './cdp-signals';
import type { RawSignal } from './signal-rules';
import { isUnaskedRequest } from './unasked-request';

/** A completed or failed request as `chrome.webRequest` reports it (the fallback without a debugger). */
export interface WebRequestEvent {
  tabId: number;
  url: string;
  method: string;
  type: string;
  statusCode: number | null;
  error: string | null;
}

/**
 * The signal a request carries: a failed load, or an HTTP status from 400 up; none for the rest. A
 * load the page or the browser cancelled (`net::ERR_ABORTED`: a navigation away, an aborted fetch) is
 * no failure, nor is a request nobody asked for (the browser's own `/favicon.ico`, unless the server answered it 5xx). `tabUrl` is the tab's page, for a request that is not the page's own document.
 */
export function webRequestSignal(e: WebRequestEvent, tabUrl: string | null, now: number): RawSignal | null {
  if (isUnaskedRequest(e.url, e.statusCode)) return null;
  const request = { url: e.url, method: e.method, status: e.statusCode, resourceType: WEB_REQUEST_TYPES[e.type] ?? 'Other', durationMs: null, errorText: e.error };
  const pageUrl = e.type === 'main_frame' ? e.url : tabUrl;
  const base = { tabId: e.tabId, pageUrl, ts: now, stack: null, request, origin: 'web_request' as const };
  if (e.error !== null) {
    if (e.error === 'net::ERR_ABORTED') return null;
    return { ...base, kind: 'network_failure', message: `${e.method} ${e.url} failed: ${e.error}` };
  }
  if (e.statusCode !== null && e.statusCode >= 400) {
    return { ...base, kind: e.statusCode >= 500 ? 'http_5xx' : 'http_4xx', message: `HTTP ${e.statusCode}: ${e.method} ${e.url}` };
  }
  return null;
}

import type { HarFile } from '../../schemas/network';

/** A response body as `Network.getResponseBody` returns it. */
export interface ResponseBody {
  body: string;
  base64Encoded: boolean;
}

/**
 * Reads a response body out of the debugger session's buffer (`Network.getResponseBody`, through the
 * recorder's own session: `src/platform/debugger-port.ts`). Rejects when Chrome no longer has it.
 */
export interface ResponseBodyReader {
  responseBody(tabId: number, requestId: string): Promise<ResponseBody>;
}

/** What the packager reads: the tab's requests in a bundle's window as HAR, masked. */
export interface NetworkHarSource {
  /**
   * `network.har` of `tabId` between `windowStart` and `windowEnd` (ms since the epoch), after the body
   * reads under way have ended (or `waitMs` passed); null when the log holds nothing of the tab.
   */
  har(tabId: number, windowStart: number, windowEnd: number, creator: { name: string; version: string }): Promise<HarFile | null>;
}

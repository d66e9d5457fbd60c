import { redactUrl } from '../redact/redact-url';
import { maskHeaders } from './mask-headers';
import { addResponse, type NetworkRecord } from './network-record';
import type { MaskContext } from './withheld-value';

type Params = Record<string, unknown>;
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * A WebSocket's record from `Network.webSocketCreated` (Chrome sends no `requestWillBeSent` for one):
 * its handshake is listed like a request (`GET`, the `101` answer, both sides' headers masked), its
 * frames are never read (`stream`: they are messages, not a body, and a socket may never close).
 * `now` stands in for the start until the handshake says it.
 */
export function webSocketRecord(p: Params, now: number, ctx: MaskContext): NetworkRecord | null {
  const requestId = str(p.requestId);
  const rawUrl = str(p.url);
  if (!requestId || !rawUrl) return null;
  return {
    requestId,
    startedAt: now,
    started: 0,
    ended: null,
    resourceType: 'WebSocket',
    navigation: false,
    frameId: null,
    method: 'GET',
    url: redactUrl(rawUrl, ctx.masker, ctx.spans),
    requestHeaders: [],
    requestCookies: [],
    requestBodySize: 0,
    encodedBytes: -1,
    content: { size: 0, omitted: 'stream' },
    truncatedHeaders: 0,
    withheld: 0,
    spans: 0,
    bytes: 0,
  };
}

/** `Network.webSocketWillSendHandshakeRequest`: the start and the request's headers, masked. */
export function addHandshakeRequest(record: NetworkRecord, p: Params, ctx: MaskContext): void {
  const wallTime = num(p.wallTime);
  if (wallTime !== null) record.startedAt = Math.round(wallTime * 1000);
  record.started = num(p.timestamp) ?? record.started;
  const headers = maskHeaders((p.request as Params | undefined)?.headers, ctx);
  record.requestHeaders = headers.headers;
  record.requestCookies = headers.cookies;
  record.truncatedHeaders += headers.truncated;
}

/** `Network.webSocketHandshakeResponseReceived`: the `101` (or the refusal) and its headers, masked. */
export function addHandshakeResponse(record: NetworkRecord, p: Params, ctx: MaskContext): void {
  const response = p.response;
  if (typeof response !== 'object' || response === null) return;
  addResponse(record, { ...(response as Params), mimeType: '', timing: undefined }, ctx);
}

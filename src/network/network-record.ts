import type { BodyOmitted } from '../../schemas/network';
import { redactUrl } from '../redact/redact-url';
import { keepsRequestBody } from './body-policy';
import { cdpTiming, type CdpTiming } from './har-timings';
import { maskBody, type MaskedBody } from './mask-body';
import { maskHeaders, type HarCookie, type MaskedHeaders, type NameValue } from './mask-headers';
import type { NetworkBodyMode } from '../../schemas/network';
import type { MaskContext } from './withheld-value';

/** One request of a tab's log, masked as it arrived: nothing in it is the page's raw text. */
export interface NetworkRecord {
  requestId: string;
  /** Wall-clock start, ms since the epoch (CDP `wallTime`). */
  startedAt: number;
  /** CDP monotonic seconds at the start and at the end (null: in flight). */
  started: number;
  ended: number | null;
  resourceType: string;
  /** A top-level navigation: the document it loads starts a page. */
  navigation: boolean;
  /** The frame that sent it (CDP `frameId`). */
  frameId: string | null;
  method: string;
  url: string;
  requestHeaders: NameValue[];
  requestCookies: HarCookie[];
  postData?: MaskedBody & { mimeType: string };
  requestBodySize: number;
  response?: {
    status: number;
    statusText: string;
    httpVersion: string;
    headers: NameValue[];
    cookies: HarCookie[];
    mimeType: string;
    redirectURL: string;
    timing: CdpTiming | null;
    remoteIp?: string;
  };
  /** Encoded bytes received (`loadingFinished`), -1 until known. */
  encodedBytes: number;
  content: { size: number; text?: string; omitted?: BodyOmitted; truncated?: boolean; sha256?: string };
  error?: string;
  truncatedHeaders: number;
  withheld: number;
  spans: number;
  /** Estimated bytes the record holds (its strings), for the per-tab budget. */
  bytes: number;
}

type Params = Record<string, unknown>;
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** HAR's spelling of CDP's protocol names. */
function httpVersion(protocol: string | null): string {
  if (!protocol) return 'HTTP/1.1';
  return /^http\/1\.[01]$/i.test(protocol) ? protocol.toUpperCase() : protocol;
}

const headerValue = (headers: readonly NameValue[], name: string) => headers.find((h) => h.name.toLowerCase() === name)?.value;

/** A new record from `Network.requestWillBeSent`, masked; null when the event lacks a request. */
export function recordFromRequest(p: Params, bodies: NetworkBodyMode, ctx: MaskContext, maxBodyChars: number): NetworkRecord | null {
  const request = p.request as Params | undefined;
  const requestId = str(p.requestId);
  const rawUrl = str(request?.url);
  if (!requestId || !request || !rawUrl) return null;
  const headers = maskHeaders(request.headers, ctx);
  const record: NetworkRecord = {
    requestId,
    startedAt: Math.round((num(p.wallTime) ?? 0) * 1000),
    started: num(p.timestamp) ?? 0,
    ended: null,
    resourceType: str(p.type) ?? 'Other',
    navigation: p.type === 'Document' && p.requestId === p.loaderId,
    frameId: str(p.frameId),
    method: str(request.method) ?? 'GET',
    url: redactUrl(rawUrl, ctx.masker, ctx.spans),
    requestHeaders: headers.headers,
    requestCookies: headers.cookies,
    requestBodySize: 0,
    encodedBytes: -1,
    content: { size: 0 },
    truncatedHeaders: headers.truncated,
    withheld: 0,
    spans: 0,
    bytes: 0,
  };
  const postData = str(request.postData);
  if (postData !== null || request.hasPostData === true) {
    const mimeType = headerValue(headers.headers, 'content-type') ?? '';
    record.requestBodySize = postData === null ? -1 : new TextEncoder().encode(postData).byteLength;
    // Chrome leaves `postData` out past `Network.enable`'s `maxPostDataSize` (and for streamed uploads).
    if (!keepsRequestBody(bodies)) record.postData = { mimeType, omitted: 'not_kept' };
    else if (postData === null) record.postData = { mimeType, omitted: 'too_large' };
    else record.postData = { mimeType, ...maskBody(postData, mimeType, maxBodyChars, ctx) };
  }
  return record;
}

/** Adds `Network.responseReceived` (or a redirect's `redirectResponse`) to a record. */
export function addResponse(record: NetworkRecord, response: Params, ctx: MaskContext): void {
  const headers = maskHeaders(response.headers, ctx);
  const location = headerValue(headers.headers, 'location');
  record.response = {
    status: num(response.status) ?? 0,
    statusText: ctx.masker.maskAndCap(str(response.statusText) ?? '', 256, ctx.spans),
    httpVersion: httpVersion(str(response.protocol)),
    headers: headers.headers,
    cookies: headers.cookies,
    mimeType: str(response.mimeType) ?? '',
    redirectURL: location ?? '',
    timing: cdpTiming(response.timing),
    ...(str(response.remoteIPAddress) ? { remoteIp: str(response.remoteIPAddress)! } : {}),
  };
  record.truncatedHeaders += headers.truncated;
}

/**
 * Replaces a side's headers with those of an `…ExtraInfo` event (masked already): the headers as sent
 * on the wire, with `Cookie` and `Set-Cookie`, which the main events leave out.
 */
export function addExtraHeaders(record: NetworkRecord, side: 'request' | 'response', headers: MaskedHeaders): void {
  record.truncatedHeaders += headers.truncated;
  if (side === 'request') {
    record.requestHeaders = headers.headers;
    record.requestCookies = headers.cookies;
  } else if (record.response) {
    record.response.headers = headers.headers;
    record.response.cookies = headers.cookies;
  }
}

/** Rough bytes a record holds: the length of its strings (UTF-16 aside), enough for a budget. */
export function estimateBytes(record: NetworkRecord): number {
  let n = 200 + record.url.length;
  for (const h of record.requestHeaders) n += h.name.length + h.value.length + 16;
  for (const h of record.response?.headers ?? []) n += h.name.length + h.value.length + 16;
  n += (record.postData?.text?.length ?? 0) * 2 + (record.content.text?.length ?? 0);
  return n;
}

import { NETWORK_HAR_VERSION, type BodyOmitted, type HarCounts, type HarEntry, type HarFile, type HarPage } from '../../schemas/network';
import { harTimings } from './har-timings';
import type { NameValue } from './mask-headers';
import type { NetworkRecord } from './network-record';

/** A page of the tab: a top-level document navigation (its redacted URL as title). */
export interface HarPageMark {
  id: string;
  startedAt: number;
  title: string;
}

export interface HarOptions {
  creator: { name: string; version: string };
  windowStart: number;
  /** Text of all the bodies together; the bodies nearest the end are kept first. */
  maxBundleBodyBytes: number;
  /** Requests the tab's log saw, and those its bounds dropped. */
  seen: number;
  dropped: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

const decode = (s: string) => {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
};

/** HAR's `queryString` of a (redacted) URL. */
export function queryStringOf(url: string): NameValue[] {
  const q = url.indexOf('?');
  if (q < 0) return [];
  const hash = url.indexOf('#', q);
  const query = url.slice(q + 1, hash < 0 ? undefined : hash);
  if (!query) return [];
  return query.split('&').map((pair) => {
    const eq = pair.indexOf('=');
    return { name: decode(eq < 0 ? pair : pair.slice(0, eq)), value: eq < 0 ? '' : decode(pair.slice(eq + 1)) };
  });
}

/** The pages of the entries: those started in the window, and the one the window opened on. */
function pagesFor(records: readonly NetworkRecord[], pages: readonly HarPageMark[], windowStart: number): HarPageMark[] {
  const before = pages.filter((p) => p.startedAt < windowStart).at(-1);
  const within = pages.filter((p) => p.startedAt >= windowStart);
  const out = before ? [before, ...within] : within;
  // Requests from before the first page the log knows (it started mid-page): a page of their own.
  const first = records[0];
  if (first && (out.length === 0 || first.startedAt < out[0]!.startedAt)) out.unshift({ id: 'page_0', startedAt: first.startedAt, title: '' });
  return out;
}

function entryOf(r: NetworkRecord, pageref: string | undefined): HarEntry {
  const { timings, time } = harTimings(r.started, r.ended, r.response?.timing ?? null);
  const response = r.response;
  const content: HarEntry['response']['content'] = {
    size: r.content.size,
    mimeType: response?.mimeType ?? '',
    ...(r.content.text !== undefined ? { text: r.content.text } : {}),
    ...(r.content.omitted ? { _omitted: r.content.omitted } : r.ended === null && response ? { _omitted: 'pending' as const } : {}),
    ...(r.content.truncated ? { _truncated: true } : {}),
    ...(r.content.sha256 ? { _sha256: r.content.sha256 } : {}),
  };
  const postData = r.postData && {
    mimeType: r.postData.mimeType,
    params: r.postData.params ?? [],
    text: r.postData.text ?? '',
    ...(r.postData.omitted ? { _omitted: r.postData.omitted } : {}),
    ...(r.postData.truncated ? { _truncated: true } : {}),
  };
  return {
    ...(pageref ? { pageref } : {}),
    startedDateTime: iso(r.startedAt),
    time,
    request: {
      method: r.method,
      url: r.url,
      httpVersion: response?.httpVersion ?? 'HTTP/1.1',
      cookies: r.requestCookies,
      headers: r.requestHeaders,
      queryString: queryStringOf(r.url),
      ...(postData ? { postData } : {}),
      headersSize: -1,
      bodySize: r.requestBodySize,
    },
    response: {
      status: response?.status ?? 0,
      statusText: response?.statusText ?? '',
      httpVersion: response?.httpVersion ?? 'HTTP/1.1',
      cookies: response?.cookies ?? [],
      headers: response?.headers ?? [],
      content,
      redirectURL: response?.redirectURL ?? '',
      headersSize: -1,
      bodySize: r.encodedBytes,
    },
    cache: {},
    timings,
    ...(response?.remoteIp ? { serverIPAddress: response.remoteIp } : {}),
    _resourceType: r.resourceType,
    ...(r.error ? { _error: r.error } : {}),
    _requestId: r.requestId,
  };
}

/** Leaves out body text past the bundle's cap, newest bodies first kept. */
function capBodies(entries: HarEntry[], maxChars: number): void {
  let left = maxChars;
  for (let i = entries.length - 1; i >= 0; i--) {
    const { request, response } = entries[i]!;
    const content = response.content;
    if (content.text !== undefined) {
      if (content.text.length <= left) left -= content.text.length;
      else {
        delete content.text;
        content._omitted = 'bundle_cap';
      }
    }
    const post = request.postData;
    if (post && post.text !== '') {
      if (post.text.length <= left) left -= post.text.length;
      else request.postData = { mimeType: post.mimeType, params: [], text: '', _omitted: 'bundle_cap' };
    }
  }
}

function countsOf(records: readonly NetworkRecord[], entries: readonly HarEntry[], options: HarOptions): HarCounts {
  const omitted: Partial<Record<BodyOmitted, number>> = {};
  for (const e of entries) {
    for (const reason of [e.response.content._omitted, e.request.postData?._omitted]) if (reason) omitted[reason] = (omitted[reason] ?? 0) + 1;
  }
  return {
    requests_seen: options.seen,
    dropped_requests: options.dropped,
    truncated_headers: records.reduce((n, r) => n + r.truncatedHeaders, 0),
    omitted_bodies: omitted,
    withheld_values: records.reduce((n, r) => n + r.withheld, 0),
    masked_spans: records.reduce((n, r) => n + r.spans, 0),
  };
}

/**
 * `network.har` (HAR 1.2) of the records, in the order they started: every field HAR requires (sizes
 * the browser does not tell are -1, as HAR allows), the pages they belong to, bodies within the bundle's
 * cap, and what the bounds and the masking did in `log._afr`.
 */
export function buildHar(records: readonly NetworkRecord[], pages: readonly HarPageMark[], options: HarOptions): HarFile {
  const sorted = [...records].sort((a, b) => a.startedAt - b.startedAt);
  const marks = pagesFor(sorted, pages, options.windowStart);
  const pageOf = (r: NetworkRecord) => marks.filter((p) => p.startedAt <= r.startedAt).at(-1)?.id;
  const entries = sorted.map((r) => entryOf(r, pageOf(r)));
  capBodies(entries, options.maxBundleBodyBytes);
  const harPages: HarPage[] = marks.map((p) => ({ startedDateTime: iso(p.startedAt), id: p.id, title: p.title, pageTimings: { onContentLoad: -1, onLoad: -1 } }));
  return {
    log: {
      version: NETWORK_HAR_VERSION,
      creator: options.creator,
      pages: harPages,
      entries,
      comment: 'Masked by Agent Flight Recorder: values withheld because of their name read [redacted <8], [redacted 8+]…; text masks read [email], [card], [credential]…',
      _afr: countsOf(sorted, entries, options),
    },
  };
}

/** One request's CDP `Network.*` events as Chrome sends them, for the network log's tests and benchmark. */
export interface FakeRequest {
  id: string;
  url: string;
  method?: string;
  type?: string;
  /** Seconds (CDP monotonic and wall clock alike here). */
  at: number;
  headers?: Record<string, string>;
  postData?: string;
  status?: number;
  mimeType?: string;
  responseHeaders?: Record<string, string>;
  /** Set-Cookie and the like, sent in `responseReceivedExtraInfo` as Chrome does. */
  extraResponseHeaders?: Record<string, string>;
  failed?: string;
  loaderId?: string;
  frameId?: string;
}

export type CdpEvent = [method: string, params: Record<string, unknown>];

export function requestEvents(r: FakeRequest): CdpEvent[] {
  const timing = { requestTime: r.at + 0.001, proxyStart: -1, proxyEnd: -1, dnsStart: 0.5, dnsEnd: 1.5, connectStart: 1.5, connectEnd: 3, sslStart: -1, sslEnd: -1, sendStart: 3.2, sendEnd: 3.5, receiveHeadersEnd: 20 };
  const events: CdpEvent[] = [
    [
      'Network.requestWillBeSent',
      {
        requestId: r.id,
        loaderId: r.loaderId ?? 'L1',
        frameId: r.frameId ?? 'F1',
        type: r.type ?? 'Fetch',
        timestamp: r.at,
        wallTime: r.at,
        request: { url: r.url, method: r.method ?? 'GET', headers: r.headers ?? {}, ...(r.postData !== undefined ? { postData: r.postData, hasPostData: true } : {}) },
      },
    ],
  ];
  if (r.failed) return [...events, ['Network.loadingFailed', { requestId: r.id, timestamp: r.at + 0.01, errorText: r.failed, type: r.type ?? 'Fetch' }]];
  if (r.extraResponseHeaders) events.push(['Network.responseReceivedExtraInfo', { requestId: r.id, headers: { ...r.responseHeaders, ...r.extraResponseHeaders } }]);
  events.push([
    'Network.responseReceived',
    {
      requestId: r.id,
      timestamp: r.at + 0.02,
      type: r.type ?? 'Fetch',
      response: { url: r.url, status: r.status ?? 200, statusText: 'OK', headers: r.responseHeaders ?? {}, mimeType: r.mimeType ?? 'application/json', protocol: 'http/1.1', timing, remoteIPAddress: '127.0.0.1' },
    },
  ]);
  events.push(['Network.loadingFinished', { requestId: r.id, timestamp: r.at + 0.03, encodedDataLength: 321 }]);
  return events;
}

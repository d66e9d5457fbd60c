import { describe, expect, it } from 'vitest';
import { HarFileSchema, type HarEntry, type HarFile } from '../../schemas/network';
import type { Step, StepDetail } from '../../schemas/steps';
import { linkHarEntries } from './har-links';

const entry = (requestId: string | undefined, status: number): HarEntry => ({
  startedDateTime: '2026-11-28T12:00:00.000Z',
  time: 10,
  request: { method: 'GET', url: `https://shop.test/${requestId}`, httpVersion: 'HTTP/1.1', cookies: [], headers: [], queryString: [], headersSize: -1, bodySize: 0 },
  response: { status, statusText: '', httpVersion: 'HTTP/1.1', cookies: [], headers: [], content: { size: 0, mimeType: 'application/json' }, redirectURL: '', headersSize: -1, bodySize: 0 },
  cache: {},
  timings: { blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait: 5, receive: 5 },
  _resourceType: 'Fetch',
  ...(requestId ? { _requestId: requestId } : {}),
});

const har = (...entries: HarEntry[]): HarFile =>
  HarFileSchema.parse({
    log: {
      version: '1.2',
      creator: { name: 'Agent Flight Recorder', version: '0.0.0' },
      pages: [],
      entries,
      _afr: { requests_seen: entries.length, dropped_requests: 0, truncated_headers: 0, omitted_bodies: {}, withheld_values: 0, masked_spans: 0 },
    },
  });

const step = (seq: number, detail?: StepDetail): Step => ({
  ts: 1_000 + seq,
  seq,
  tab_id: 1,
  frame_id: null,
  url: 'https://shop.test/',
  source: 'recorder',
  kind: 'signal',
  action: 'signal: http_4xx',
  target: null,
  value: null,
  value_redacted: false,
  outcome: 'fail',
  label: null,
  ...(detail ? { detail } : {}),
});

describe('linkHarEntries', () => {
  const file = har(entry('a', 200), entry('r', 302), entry('r', 401), entry(undefined, 500), entry('b', 200));

  it('names the entry of each network signal’s request', () => {
    const steps = linkHarEntries([step(0, { signal_kind: 'app_error', request_id: 'b', status: 200 }), step(1, { signal_kind: 'network_failure', request_id: 'a' })], file);
    expect(steps.map((s) => s.detail?.har_entry)).toEqual([4, 0]);
  });

  it('names the hop of a redirect that answered the step’s status', () => {
    expect(linkHarEntries([step(0, { signal_kind: 'http_4xx', request_id: 'r', status: 401 })], file)[0]!.detail!.har_entry).toBe(2);
    expect(linkHarEntries([step(0, { signal_kind: 'network_failure', request_id: 'r' })], file)[0]!.detail!.har_entry).toBe(2);
  });

  it('leaves unlinked a step whose request is not in the HAR, a step of no request, and every step without a HAR', () => {
    const steps = [step(0, { signal_kind: 'http_5xx', request_id: 'gone', status: 500 }), step(1), step(2, { signal_kind: 'exception' })];
    expect(linkHarEntries(steps, file)).toEqual(steps);
    expect(linkHarEntries([step(0, { signal_kind: 'http_4xx', request_id: 'r', status: 401 })], null)[0]!.detail!.har_entry).toBeUndefined();
  });
});

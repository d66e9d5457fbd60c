import { describe, expect, it } from 'vitest';
import type { HarEntry, HarFile } from '../../schemas/network';
import { recordedResponses, ResponseQueue } from './offline-responses';

const entry = (method: string, url: string, status: number, text: string | undefined, at: string): HarEntry => ({
  startedDateTime: at,
  time: 1,
  request: { method, url, httpVersion: 'HTTP/1.1', cookies: [], headers: [], queryString: [], headersSize: -1, bodySize: 0 },
  response: { status, statusText: '', httpVersion: 'HTTP/1.1', cookies: [], headers: [], content: { size: 1, mimeType: 'application/json', ...(text === undefined ? { _omitted: 'not_kept' as const } : { text }) }, redirectURL: '', headersSize: -1, bodySize: 1 },
  cache: {},
  timings: { blocked: 0, dns: 0, connect: 0, send: 0, wait: 0, receive: 0, ssl: 0 },
  _resourceType: 'Fetch',
});
const har = (entries: HarEntry[]): HarFile => ({ log: { version: '1.2', creator: { name: 'afr', version: '1' }, pages: [], entries, _afr: { requests_seen: 0, dropped_requests: 0, truncated_headers: 0, omitted_bodies: {}, withheld_values: 0, masked_spans: 0 } } });

describe('ResponseQueue', () => {
  const responses = recordedResponses(
    har([
      entry('GET', 'https://a.test/api/cart', 200, '{"n":2}', '2026-01-01T00:00:02Z'),
      entry('GET', 'https://a.test/api/cart', 200, '{"n":1}', '2026-01-01T00:00:01Z'),
      entry('POST', 'https://a.test/api/pay?token=[redacted 8+]', 500, undefined, '2026-01-01T00:00:03Z'),
      entry('GET', 'https://a.test/gone', 0, undefined, '2026-01-01T00:00:04Z'),
    ]),
  );

  it('answers by method, URL and order; again with the last when asked more often; a masked query matches on the path', () => {
    const queue = new ResponseQueue(responses);
    expect(queue.take('GET', 'https://a.test/api/cart')?.body).toBe('{"n":1}');
    expect(queue.take('GET', 'https://a.test/api/cart')?.body).toBe('{"n":2}');
    expect(queue.take('GET', 'https://a.test/api/cart')?.body).toBe('{"n":2}');
    expect(queue.take('post', 'https://a.test/api/pay?token=abc')).toMatchObject({ status: 500, body: '', omitted: 'not_kept' });
    expect(queue.take('GET', 'https://a.test/gone')).toBeNull();
    expect(queue.take('DELETE', 'https://a.test/api/cart')).toBeNull();
    expect(queue.unrecorded).toEqual(['GET https://a.test/gone', 'DELETE https://a.test/api/cart']);
  });
});

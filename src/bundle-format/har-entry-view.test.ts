import { describe, expect, it } from 'vitest';
import { bodyView, requestRow } from './har-entry-view';
import type { TolerantHarEntry } from './tolerant-har';

const entry = (over: Partial<TolerantHarEntry> = {}): TolerantHarEntry => ({
  startedDateTime: '2026-11-22T11:59:55.000Z',
  time: 12.4,
  request: { method: 'GET', url: 'https://shop.test/api/cart', headers: [] },
  response: { status: 200, statusText: 'OK', headers: [], content: { size: 40, mimeType: 'application/json' }, bodySize: 30 },
  _resourceType: 'Fetch',
  ...over,
});

describe('requestRow', () => {
  it('says what a list shows: 1-based index, status, type, size, time', () => {
    expect(requestRow(entry(), 2)).toEqual({
      index: 3, method: 'GET', url: 'https://shop.test/api/cart', status: 200, status_text: 'OK', type: 'Fetch', size: 40,
      started_ts: Date.UTC(2026, 10, 22, 11, 59, 55), time_ms: 12.4, error: null, failed: false,
    });
  });

  it.each([
    [500, undefined, true],
    [404, undefined, true],
    [0, 'net::ERR_CONNECTION_REFUSED', true],
    [302, undefined, false],
  ])('status %s (error %s) is failed: %s', (status, error, failed) => {
    const row = requestRow(entry({ response: { ...entry().response, status }, ...(error ? { _error: error } : {}) }), 0);
    expect(row.failed).toBe(failed);
  });

  it('falls back to the transferred size, then to none, and to the MIME type for a HAR without resource types', () => {
    const { _resourceType: _, ...plain } = entry();
    expect(requestRow({ ...plain, response: { ...plain.response, content: { size: -1, mimeType: 'text/html' } } }, 0)).toMatchObject({ size: 30, type: 'text/html' });
    expect(requestRow({ ...plain, response: { ...plain.response, bodySize: -1, content: { size: -1, mimeType: 'x' } } }, 0).size).toBeNull();
  });
});

describe('bodyView', () => {
  it('pretty-prints JSON with the masks where they are', () => {
    const view = bodyView({ mimeType: 'application/json', text: '{"access_token":"[redacted 32+]","error":"token_expired"}' });
    expect(view).toMatchObject({ kind: 'json', note: null, cut_chars: 0 });
    expect(view.text).toBe('{\n  "access_token": "[redacted 32+]",\n  "error": "token_expired"\n}');
  });

  it.each([
    ['a JSON type holding an HTML error page', 'application/json', '<html>502 Bad Gateway</html>'],
    ['a body that only looks like JSON', 'text/plain', '{not json'],
    ['JSON nested past the bound', 'application/json', `${'['.repeat(600)}${']'.repeat(600)}`],
  ])('shows %s as it is', (_name, mimeType, text) => {
    expect(bodyView({ mimeType, text })).toMatchObject({ kind: 'text', text });
  });

  it('says why a body is not there, with its hash', () => {
    expect(bodyView({ mimeType: 'image/png', _omitted: 'binary', _sha256: 'a'.repeat(64) })).toMatchObject({
      kind: 'none', text: '', note: `binary, not kept as text; SHA-256 ${'a'.repeat(64)}`,
    });
    expect(bodyView({ mimeType: 'x', _omitted: 'from-the-future' }).note).toBe('left out (from-the-future)');
  });

  it('cuts a long body by code points and counts the rest', () => {
    const view = bodyView({ mimeType: 'text/plain', text: `${'😀'.repeat(10)}abc` }, 10);
    expect(view).toMatchObject({ text: '😀'.repeat(10), cut_chars: 3 });
  });

  it('keeps base64 bodies as the HAR has them', () => {
    expect(bodyView({ mimeType: 'text/plain', text: 'aGk=', encoding: 'base64' }).kind).toBe('base64');
  });
});

import { describe, expect, it } from 'vitest';
import { renderJsonSchemas } from '../../schemas/generate';
import type { HarFile } from '../../schemas/network';
import { makeBundleZip } from '../../test/fakes/viewer-bundle';
import { openBundleZip } from '../bundle-format/open-zip';
import { bundleSchemaFileNames, type BundleJsonSchemas } from './bundle-json-schemas';
import { redactBundle } from './redact-bundle';
import { validateBundle } from './validate-bundle';

const rendered = renderJsonSchemas();
const schemas: BundleJsonSchemas = Object.fromEntries(Object.entries(bundleSchemaFileNames()).map(([file, name]) => [file, JSON.parse(rendered[name] ?? '{}') as object]));
/** The fake bundle's frames and clip are not real pictures: only the other files' problems count here. */
const problemsOf = async (zip: Uint8Array) => (await validateBundle(zip, schemas, viewer)).problems.filter((p) => !p.file.startsWith('frames/') && p.file !== 'failure.mp4');
const viewer = () => Promise.resolve({ version: '0.1.0', script: 'document.title = "viewer";' });

/** A HAR as the recorder writes it, with what a later rule (`ACCT-\d+`) must mask in a URL, a header and a body. */
const har: HarFile = {
  log: {
    version: '1.2',
    creator: { name: 'Agent Flight Recorder', version: '0.1.0' },
    pages: [{ startedDateTime: '2026-11-22T11:59:50.000Z', id: 'page_1', title: 'https://shop.test/', pageTimings: { onContentLoad: -1, onLoad: -1 } }],
    entries: [
      {
        pageref: 'page_1',
        startedDateTime: '2026-11-22T11:59:55.000Z',
        time: 12,
        request: { method: 'GET', url: 'https://shop.test/api/ACCT-314159', httpVersion: 'HTTP/1.1', cookies: [], headers: [{ name: 'X-Account', value: 'ACCT-314159' }], queryString: [], headersSize: -1, bodySize: 0 },
        response: {
          status: 200,
          statusText: 'OK',
          httpVersion: 'HTTP/1.1',
          cookies: [],
          headers: [{ name: 'Content-Type', value: 'application/json' }],
          content: { size: 40, mimeType: 'application/json', text: '{"account":"ACCT-314159","error":"token_expired"}' },
          redirectURL: '',
          headersSize: -1,
          bodySize: 40,
        },
        cache: {},
        timings: { blocked: 0, dns: -1, connect: -1, send: 0, wait: 12, receive: 0, ssl: -1 },
        _resourceType: 'Fetch',
      },
    ],
    _afr: { requests_seen: 1, dropped_requests: 0, truncated_headers: 0, omitted_bodies: {}, withheld_values: 0, masked_spans: 0 },
  },
};

describe('network.har in a bundle', () => {
  it('validates, and afr redact masks it again with the shape and ordinary data kept', async () => {
    const zip = await makeBundleZip({ har });
    expect(await problemsOf(zip)).toEqual([]);
    const result = await redactBundle(await openBundleZip(zip), schemas, { patterns: [/ACCT-\d+/gu], dropFrames: true, now: new Date(), tool: 'afr 0.1.0', viewer: null });
    const archive = await openBundleZip(result.zip);
    const text = new TextDecoder().decode(archive.files.get('network.har'));
    expect(text).not.toContain('ACCT-314159');
    const out = JSON.parse(text) as HarFile;
    expect(out.log.entries[0]!.request.url).toBe('https://shop.test/api/[redacted]');
    expect(out.log.entries[0]!.response.content.text).toBe('{"account":"[redacted]","error":"token_expired"}');
    expect(await problemsOf(result.zip)).toEqual([]);
  });

  it('a bundle without one (written before the network log) is still valid', async () => {
    expect(await problemsOf(await makeBundleZip())).toEqual([]);
  });
});

import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { UploadIndexRecord } from '../../schemas/upload';
import { fleetTableLines, listFleet, parseS3Url, parseSince, pullBundle, type FleetStore } from './fleet';

const NOW = Date.UTC(2026, 10, 25, 12, 0, 0);

function record(id: string, endedAt: string, reason: string, agent: string | null, zip = new Uint8Array([1, 2, 3])): UploadIndexRecord {
  const day = endedAt.slice(0, 10).replaceAll('-', '/');
  return {
    index_version: 1,
    bundle_id: id,
    run_id: `run-${id}`,
    agent,
    agent_version: null,
    status: 'failure',
    reason,
    label: null,
    url: 'https://shop.test/checkout',
    started_at: endedAt,
    ended_at: endedAt,
    frame_count: 4,
    size_bytes: zip.byteLength,
    sha256: createHash('sha256').update(zip).digest('hex'),
    zip_key: `fleet/bundles/${day}/${id}.zip`,
    extension_version: '0.1.0',
    browser_version: 'Chromium 156',
  };
}

/** A bucket in memory holding index objects (and zips) by key. */
function bucket(objects: Record<string, Uint8Array | string>): FleetStore & { gets: string[] } {
  const gets: string[] = [];
  return {
    gets,
    list: async (_bucket, prefix) => Object.keys(objects).filter((k) => k.startsWith(prefix)),
    get: async (_bucket, key, maxBytes) => {
      gets.push(key);
      const value = objects[key];
      if (value === undefined) return null;
      const bytes = typeof value === 'string' ? new TextEncoder().encode(value) : value;
      if (bytes.byteLength > maxBytes) throw new Error('too large');
      return bytes;
    },
  };
}

const indexKey = (r: UploadIndexRecord) => r.zip_key.replace('/bundles/', '/index/').replace(/\.zip$/, '.json');
const put = (records: UploadIndexRecord[]) => Object.fromEntries(records.map((r) => [indexKey(r), JSON.stringify(r)]));

describe('listFleet', () => {
  const a = record('afr-20261125T100000Z-aaaaaa', '2026-11-25T10:00:00.000Z', 'uncaught_exception', 'checkout-bot');
  const b = record('afr-20261124T130000Z-bbbbbb', '2026-11-24T13:00:00.000Z', 'http_5xx', 'search-bot');
  const old = record('afr-20261120T100000Z-cccccc', '2026-11-20T10:00:00.000Z', 'http_5xx', 'search-bot');

  it('lists the window newest first, reading only the days in it', async () => {
    const store = bucket(put([a, b, old]));
    const { records } = await listFleet(store, { bucket: 'runs', prefix: 'fleet' }, { since: parseSince('24h', NOW), until: NOW });
    expect(records.map((r) => r.bundle_id)).toEqual([a.bundle_id, b.bundle_id]);
    expect(store.gets.some((k) => k.includes('/2026/11/20/'))).toBe(false);
  });

  it('filters by reason and agent', async () => {
    const store = bucket(put([a, b, old]));
    const at = { bucket: 'runs', prefix: 'fleet' };
    expect((await listFleet(store, at, { since: parseSince('7d', NOW), until: NOW, reason: 'http_5xx' })).records.map((r) => r.bundle_id)).toEqual([b.bundle_id, old.bundle_id]);
    expect((await listFleet(store, at, { since: parseSince('7d', NOW), until: NOW, agent: 'checkout-bot' })).records).toHaveLength(1);
  });

  it('names objects that are not index records instead of failing', async () => {
    const store = bucket({ ...put([a]), 'fleet/index/2026/11/25/junk.json': '{"bundle_id": 1}', 'fleet/index/2026/11/25/big.json': 'x'.repeat(70_000) });
    const { records, unreadable } = await listFleet(store, { bucket: 'runs', prefix: 'fleet' }, { since: parseSince('1d', NOW), until: NOW });
    expect(records).toHaveLength(1);
    expect(unreadable.sort()).toEqual(['fleet/index/2026/11/25/big.json', 'fleet/index/2026/11/25/junk.json']);
  });

  it('prints a table with a count', () => {
    const table = fleetTableLines([a]).join('\n');
    expect(table).toMatch(/^ENDED\s+REASON\s+AGENT\s+BUNDLE/);
    expect(table).toContain('2026-11-25T10:00:00Z  uncaught_exception  checkout-bot  afr-20261125T100000Z-aaaaaa');
    expect(table.trim().endsWith('1 bundle')).toBe(true);
    expect(fleetTableLines([])).toEqual(['no bundles delivered in that window']);
  });
});

describe('pullBundle', () => {
  const zip = new Uint8Array([80, 75, 3, 4, 1, 2]);
  const r = record('afr-20261125T235959Z-dddddd', '2026-11-26T00:00:01.000Z', 'uncaught_exception', null, zip);

  it('finds the bundle on the day after its failure second and checks its SHA-256', async () => {
    const store = bucket({ ...put([r]), [r.zip_key]: zip });
    const pulled = await pullBundle(store, { bucket: 'runs', prefix: 'fleet' }, r.bundle_id, 1024);
    expect(pulled.zip).toEqual(zip);
    expect(pulled.index.bundle_id).toBe(r.bundle_id);
  });

  it('refuses a zip whose bytes are not those the index names', async () => {
    const store = bucket({ ...put([r]), [r.zip_key]: new Uint8Array([9, 9]) });
    await expect(pullBundle(store, { bucket: 'runs', prefix: 'fleet' }, r.bundle_id, 1024)).rejects.toThrow(/SHA-256 is .* the index says/);
  });

  it('says when there is no such bundle', async () => {
    await expect(pullBundle(bucket({}), { bucket: 'runs', prefix: 'fleet' }, r.bundle_id, 1024)).rejects.toThrow(/no bundle afr-20261125T235959Z-dddddd/);
  });
});

describe('parseS3Url and parseSince', () => {
  it('reads s3://bucket/prefix', () => {
    expect(parseS3Url('s3://runs/fleet/ci/')).toEqual({ bucket: 'runs', prefix: 'fleet/ci' });
    expect(parseS3Url('s3://runs')).toEqual({ bucket: 'runs', prefix: '' });
    expect(() => parseS3Url('https://runs/x')).toThrow(/not an s3:\/\/bucket\/prefix/);
  });

  it('reads relative and absolute times', () => {
    expect(parseSince('30m', NOW)).toBe(NOW - 1_800_000);
    expect(parseSince('2026-11-01', NOW)).toBe(Date.UTC(2026, 10, 1));
    expect(() => parseSince('yesterday', NOW)).toThrow(/--since wants/);
  });
});

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

/**
 * A bucket in memory holding index objects (and zips) by key; `open` sends an object in 2-byte chunks,
 * declaring `declare(key)` bytes (its real length by default), and records what was opened and read.
 */
function bucket(objects: Record<string, Uint8Array | string>, declare?: (key: string, real: number) => number | undefined): FleetStore & { gets: string[]; opened: string[]; sent: number[]; cancelled: string[] } {
  const gets: string[] = [];
  const opened: string[] = [];
  const sent: number[] = [];
  const cancelled: string[] = [];
  return {
    gets,
    opened,
    sent,
    cancelled,
    open: async (_bucket, key) => {
      opened.push(key);
      const value = objects[key];
      if (value === undefined) return null;
      const bytes = typeof value === 'string' ? new TextEncoder().encode(value) : value;
      async function* chunks() {
        for (let at = 0; at < bytes.byteLength; at += 2) {
          sent.push(Math.min(2, bytes.byteLength - at));
          yield bytes.subarray(at, at + 2);
        }
      }
      return { length: declare ? declare(key, bytes.byteLength) : bytes.byteLength, chunks: chunks(), cancel: () => void cancelled.push(key) };
    },
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
  const zip = new Uint8Array([80, 75, 3, 4, 1, 2, 7]);
  const r = record('afr-20261125T235959Z-dddddd', '2026-11-26T00:00:01.000Z', 'uncaught_exception', null, zip);
  const at = { bucket: 'runs', prefix: 'fleet' };
  /** A sink that keeps what it is given, as the staged file would. */
  const sink = () => {
    const chunks: Uint8Array[] = [];
    return { chunks, write: async (chunk: Uint8Array) => void chunks.push(chunk.slice()), bytes: () => new Uint8Array(chunks.flatMap((c) => [...c])) };
  };

  it('finds the bundle on the day after its failure second, streams it and checks its SHA-256', async () => {
    const store = bucket({ ...put([r]), [r.zip_key]: zip });
    const out = sink();
    const index = await pullBundle(store, at, r.bundle_id, 1024, out);
    expect(out.bytes()).toEqual(zip);
    expect(out.chunks.length).toBeGreaterThan(1);
    expect(index.bundle_id).toBe(r.bundle_id);
  });

  it('refuses a zip whose bytes are not those the index names', async () => {
    const store = bucket({ ...put([r]), [r.zip_key]: new Uint8Array([9, 9, 9, 9, 9, 9, 9]) });
    await expect(pullBundle(store, at, r.bundle_id, 1024, sink())).rejects.toThrow(/SHA-256 is .* the index says/);
  });

  it('refuses an index whose zip_key points elsewhere in the bucket, naming both keys, and never opens it', async () => {
    const foreign = { ...r, zip_key: `other/bundles/2026/11/26/${r.bundle_id}.zip` };
    const store = bucket({ [indexKey(r)]: JSON.stringify(foreign), [foreign.zip_key]: zip, [r.zip_key]: zip });
    await expect(pullBundle(store, at, r.bundle_id, 1024, sink())).rejects.toThrow(
      `s3://runs/fleet/index/2026/11/26/${r.bundle_id}.json: its zip_key is s3://runs/other/bundles/2026/11/26/${r.bundle_id}.zip, not s3://runs/${r.zip_key} where bundle ${r.bundle_id} belongs; refused`,
    );
    expect(store.opened).toEqual([]);
  });

  it('refuses an index on another day than its own zip (the layout puts both on the same day)', async () => {
    const elsewhere = { ...r, zip_key: r.zip_key.replace('/2026/11/26/', '/2026/11/25/') };
    const store = bucket({ [indexKey(r)]: JSON.stringify(elsewhere), [elsewhere.zip_key]: zip });
    await expect(pullBundle(store, at, r.bundle_id, 1024, sink())).rejects.toThrow(/its zip_key is .* not .* where bundle/);
  });

  it('refuses an index that names another bundle', async () => {
    const other = { ...r, bundle_id: 'afr-20261125T235959Z-eeeeee' };
    const store = bucket({ [indexKey(r)]: JSON.stringify(other), [r.zip_key]: zip });
    await expect(pullBundle(store, at, r.bundle_id, 1024, sink())).rejects.toThrow(/names bundle "afr-20261125T235959Z-eeeeee", not afr-20261125T235959Z-dddddd/);
    expect(store.opened).toEqual([]);
  });

  it('refuses an object larger than the ceiling before opening it', async () => {
    const store = bucket({ ...put([r]), [r.zip_key]: zip });
    await expect(pullBundle(store, at, r.bundle_id, 6, sink())).rejects.toThrow(/the index says 7 bytes, more than the 6 allowed \(--max-bytes\)/);
    expect(store.opened).toEqual([]);
  });

  it('refuses, unread, an object the bucket declares larger than its index says', async () => {
    const store = bucket({ ...put([r]), [r.zip_key]: zip }, () => 300 * 1024 * 1024);
    await expect(pullBundle(store, at, r.bundle_id, 1024, sink())).rejects.toThrow(/the bucket says 314572800 bytes, the index 7/);
    expect(store.cancelled).toEqual([r.zip_key]);
    expect(store.sent).toEqual([]);
  });

  it('stops reading as soon as an undeclared object passes its index size', async () => {
    const big = new Uint8Array(1000);
    const store = bucket({ ...put([r]), [r.zip_key]: big }, () => undefined);
    const out = sink();
    await expect(pullBundle(store, at, r.bundle_id, 1024, out)).rejects.toThrow(/sends more than the 7 bytes its index says/);
    expect(store.sent.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(8);
    expect(out.bytes().byteLength).toBeLessThanOrEqual(7);
  });

  it('refuses an object shorter than its index says', async () => {
    const store = bucket({ ...put([r]), [r.zip_key]: zip.subarray(0, 4) }, () => undefined);
    await expect(pullBundle(store, at, r.bundle_id, 1024, sink())).rejects.toThrow(/ended after 4 bytes, the index says 7/);
  });

  it('says when there is no such bundle, and when the index object is not one', async () => {
    await expect(pullBundle(bucket({}), at, r.bundle_id, 1024, sink())).rejects.toThrow(/no bundle afr-20261125T235959Z-dddddd/);
    await expect(pullBundle(bucket({ [indexKey(r)]: '{"bundle_id": 1}' }), at, r.bundle_id, 1024, sink())).rejects.toThrow(/index\/2026\/11\/26\/afr-20261125T235959Z-dddddd.json: not an index record/);
  });

  it('escapes control characters of a forged key in its message', async () => {
    const forged = { ...r, zip_key: 'other/\n\x1b[2Jx.zip' };
    await expect(pullBundle(bucket({ [indexKey(r)]: JSON.stringify(forged) }), at, r.bundle_id, 1024, sink())).rejects.toThrow(/its zip_key is s3:\/\/runs\/other\/\\n\\x1b\[2Jx\.zip, not/);
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

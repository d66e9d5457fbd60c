import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, describe, expect, it } from 'vitest';
import { UploadIndexRecordSchema, type UploadIndexRecord } from '../../schemas/upload';
import { objectKeys } from '../../src/bundle-format/bucket-layout';
import { docBlock } from '../support/doc-block';

/** The one ```sql block of docs/delivery.md over the bucket's index objects, as a reader copies it. */
function docsIndexQuery(): string {
  return docBlock('docs/delivery.md', 'sql', 'read_json_auto');
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'afr-index-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An index object as the recorder writes it (checked against its schema), stored under the bucket layout's key. */
function writeIndexObject(n: number, agent: string, reason: string, status: 'failure' | 'success'): void {
  const bundleId = `2026-11-25T10-00-${String(n).padStart(2, '0')}-000Z-${n}`;
  const keys = objectKeys('ci', bundleId, '2026-11-25T10:00:00.000Z');
  const record: UploadIndexRecord = UploadIndexRecordSchema.parse({
    index_version: 1,
    bundle_id: bundleId,
    run_id: `run-${n}`,
    agent,
    agent_version: '1.2.0',
    status,
    reason,
    label: null,
    url: 'https://shop.example/checkout',
    started_at: '2026-11-25T09:59:45.000Z',
    ended_at: '2026-11-25T10:00:00.000Z',
    frame_count: 30,
    size_bytes: 1000 + n,
    sha256: 'a'.repeat(64),
    zip_key: keys.zip,
    extension_version: '0.1.0',
    browser_version: 'Chromium 156',
  });
  const file = path.join(dir, 'agent-runs', keys.index);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(record));
}

describe("the docs' DuckDB query over the bucket's index objects", () => {
  it('counts failures per reason per agent over a day, from index objects the recorder writes', async () => {
    const rows: [number, string, string, 'failure' | 'success'][] = [
      [1, 'checkout-bot', 'http_5xx', 'failure'],
      [2, 'checkout-bot', 'http_5xx', 'failure'],
      [3, 'checkout-bot', 'page_exception', 'failure'],
      [4, 'search-bot', 'http_5xx', 'failure'],
      [5, 'search-bot', 'http_5xx', 'success'], // a passing run's bundle: not a failure
    ];
    for (const row of rows) writeIndexObject(...row);
    // The bucket is a local folder here: httpfs (INSTALL needs the internet) is not needed to read files.
    const sql = docsIndexQuery()
      .replace(/INSTALL httpfs; LOAD httpfs;\n/, '')
      .replace('s3://agent-runs/', `${dir}/agent-runs/`);
    expect(sql).not.toContain('s3://');
    const db = await DuckDBInstance.create(':memory:');
    const connection = await db.connect();
    try {
      const result = await connection.runAndReadAll(sql);
      const counts = result.getRowObjects().map((r) => ({ agent: r.agent, reason: r.reason, failures: Number(r.failures) }));
      expect(counts).toEqual([
        { agent: 'checkout-bot', reason: 'http_5xx', failures: 2 },
        expect.objectContaining({ failures: 1 }),
        expect.objectContaining({ failures: 1 }),
      ]);
      expect(counts.slice(1).map((c) => `${c.agent}/${c.reason}`).sort()).toEqual(['checkout-bot/page_exception', 'search-bot/http_5xx']);
    } finally {
      connection.closeSync();
    }
  });
});

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, describe, expect, it } from 'vitest';
import { compactDay } from '../../src/cli/compact-day';
import { folderFleetStore } from '../../src/cli/folder-fleet-store';
import { readFailureGroups } from '../../src/cli/triage-read';
import { FAILURES, NOW, indexRecord } from '../fixtures/cli/triage-fleet';
import { docBlock } from '../support/doc-block';

const DAY = 86_400_000;
const dir = mkdtempSync(path.join(os.tmpdir(), 'afr-triage-sql-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A local copy of `s3://agent-runs/ci`: the day before NOW compacted (and one late object left loose), NOW's day loose. */
async function fleetCopy(): Promise<void> {
  const put = ([key, record]: ReturnType<typeof indexRecord>) => {
    const file = path.join(dir, key.replace(/^ci\//, ''));
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(record));
  };
  FAILURES.forEach((f, i) => put(indexRecord(i + 11, f, 'ci', NOW - DAY)));
  await compactDay(folderFleetStore(dir), { bucket: '', prefix: '' }, new Date(NOW - DAY).toISOString().slice(0, 10));
  put(indexRecord(21, FAILURES[5]!, 'ci', NOW - DAY));
  FAILURES.forEach((f, i) => put(indexRecord(i + 1, f, 'ci')));
}

describe("the docs' DuckDB grouping over compacted days and loose objects", () => {
  it('finds the groups afr triage finds', async () => {
    await fleetCopy();
    const since = NOW - 2 * DAY;
    const sql = docBlock('docs/delivery.md', 'sql', 'index-compact/**')
      .replace(/INSTALL httpfs; LOAD httpfs;\n/, '')
      .replaceAll('s3://agent-runs/ci/', `${dir}/`)
      .replace("'2026-11-24T00:00:00Z'", `'${new Date(since).toISOString()}'`);
    expect(sql).not.toContain('s3://');
    const db = await DuckDBInstance.create(':memory:');
    const connection = await db.connect();
    let rows: { grp: string; failures: number; newest: string[] }[];
    try {
      rows = (await connection.runAndReadAll(sql)).getRowObjectsJson().map((r) => ({ grp: String(r.grp), failures: Number(r.failures), newest: r.newest as string[] }));
    } finally {
      connection.closeSync();
    }
    const triage = await readFailureGroups({ location: dir, since, until: NOW }, {});
    expect(rows.map((r) => r.failures)).toEqual([6, 4, 3]);
    expect(rows.map((r) => [r.grp, r.failures])).toEqual(triage.groups.map((g) => [g.fingerprint, g.count]));
    expect(rows.map((r) => r.newest)).toEqual(triage.groups.map((g) => g.newest));
  }, 60_000);
});

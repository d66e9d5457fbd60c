import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FAILURES, NOW, indexRecord } from '../../test/fixtures/cli/triage-fleet';
import type { FailureGroup } from '../triage/failure-groups';
import { EXIT_OK, EXIT_USAGE, type CliIo } from './command';
import { readParquetRows } from './duckdb-node';
import { runCli } from './main';

const dir = mkdtempSync(path.join(os.tmpdir(), 'afr-compact-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function io() {
  const out = { stdout: '', stderr: '' };
  const cli: CliIo = {
    readFile: async () => new Uint8Array(), writeFile: async () => undefined, sameFile: async () => false, version: () => '0.1.0', now: () => new Date(NOW),
    loadSchemas: () => ({}), loadViewer: async () => ({ version: '0.1.0', script: '' }), stdout: (t) => void (out.stdout += t), stderr: (t) => void (out.stderr += t),
  };
  return { cli, out };
}

/** Writes an index object into the local copy of the bucket (the prefix `fleet` is the folder). */
function put(key: string, text: string) {
  const file = path.join(dir, key.replace(/^fleet\//, ''));
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

const triageCounts = async () => {
  const { cli, out } = io();
  expect(await runCli(['triage', dir, '--since', '2h', '--json'], cli)).toBe(EXIT_OK);
  return (JSON.parse(out.stdout) as { groups: FailureGroup[] }).groups.map((g) => g.count);
};

describe('afr index compact', () => {
  it('writes the day as one Parquet file, the same file again on a re-run, which triage reads instead of the loose objects', async () => {
    const records = FAILURES.map((f, i) => indexRecord(i + 1, f));
    const files = records.map(([key, record]) => put(key, JSON.stringify(record)));
    put('fleet/index/2026/11/23/junk.json', '{"index_version": 7}');
    const { cli, out } = io();
    expect(await runCli(['index', 'compact', dir, '--day', '2026-11-23'], cli)).toBe(EXIT_OK);
    expect(out.stdout).toMatch(/^6 index records of 2026-11-23 written to index-compact\/2026\/11\/23\.parquet \(\d+(\.\d+)? (KiB|B)\)\n$/);
    expect(out.stderr).toContain('left out 1 object of the index: 1 another version');
    const parquet = path.join(dir, 'index-compact/2026/11/23.parquet');
    const first = readFileSync(parquet);
    expect(first.subarray(0, 4).toString()).toBe('PAR1');
    const rows: Record<string, unknown>[] = [];
    for await (const row of readParquetRows(parquet)) rows.push(row);
    expect(rows.map((r) => r.bundle_id)).toEqual([...records].sort((a, b) => a[1].ended_at.localeCompare(b[1].ended_at)).map(([, r]) => r.bundle_id));
    expect(rows[0]).toMatchObject({ fingerprint: expect.stringMatching(/^[0-9a-f]{16}$/), signature: { reason: 'page_exception', frames: ['priceOrder @ shop.test/app.{hash}.js'] } });

    expect(await runCli(['index', 'compact', dir, '--day', '2026-11-23'], io().cli)).toBe(EXIT_OK);
    expect(readFileSync(parquet).equals(first)).toBe(true);

    // The loose objects gone: triage reads the day from its file.
    for (const file of files) rmSync(file);
    expect(await triageCounts()).toEqual([3, 2, 1]);
    // A late delivery to a compacted day is read from its loose object.
    const [lateKey, late] = indexRecord(9, FAILURES[5]!);
    put(lateKey, JSON.stringify(late));
    expect(await triageCounts()).toEqual([3, 2, 2]);
  }, 60_000);

  it.each([
    [['index'], /index wants a verb/],
    [['index', 'compact', 's3://runs/x'], /needs --day/],
    [['index', 'compact', 's3://runs/x', '--day', '2026-02-30'], /--day wants a date as YYYY-MM-DD, not "2026-02-30"/],
  ])('refuses %j', async (argv, message) => {
    const { cli, out } = io();
    expect(await runCli(argv, cli)).toBe(EXIT_USAGE);
    expect(out.stderr).toMatch(message);
  });
});

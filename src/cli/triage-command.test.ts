import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { UploadIndexRecord } from '../../schemas/upload';
import { BUNDLE_ID, T0, bundleContents, makeBundle } from '../../test/fixtures/cli/make-bundle';
import { FAILURES, MIN, NOW, indexRecord } from '../../test/fixtures/cli/triage-fleet';
import { failureFacts } from '../bundle-format/fingerprint/failure-facts';
import { failureSignature, fingerprintOf } from '../bundle-format/fingerprint/fingerprint';
import type { FailureGroup } from '../triage/failure-groups';
import { EXIT_OK, type CliIo } from './command';
import { ObjectTooLargeError, type FleetStore } from './fleet';
import { escapeHtml } from '../triage/report-html';
import { runCli } from './main';

function memoryFleet(records: [string, UploadIndexRecord][]): FleetStore {
  const objects = new Map(records.map(([key, record]) => [key, new TextEncoder().encode(JSON.stringify(record))]));
  return { list: async (_b, prefix) => [...objects.keys()].filter((k) => k.startsWith(prefix)), get: async (_b, key) => objects.get(key) ?? null, open: async () => null };
}

function io(fleet?: FleetStore) {
  const out = { stdout: '', stderr: '' };
  const cli: CliIo = {
    readFile: async () => new Uint8Array(),
    writeFile: async () => undefined,
    sameFile: async () => false,
    version: () => '0.1.0',
    now: () => new Date(NOW),
    loadSchemas: () => ({}),
    loadViewer: async () => ({ version: '0.1.0', script: '' }),
    stdout: (text) => void (out.stdout += text),
    stderr: (text) => void (out.stderr += text),
    ...(fleet ? { fleetStore: async () => fleet } : {}),
  };
  return { cli, out };
}

describe('afr triage', () => {
  it('folds six failures of three causes from two agents into groups of 3, 2 and 1', async () => {
    const { cli, out } = io(memoryFleet(FAILURES.map((f, i) => indexRecord(i + 1, f))));
    expect(await runCli(['triage', 's3://runs/fleet', '--since', '2h', '--json'], cli)).toBe(EXIT_OK);
    const { groups, failures } = JSON.parse(out.stdout) as { groups: FailureGroup[]; failures: number };
    expect(failures).toBe(6);
    expect(groups.map((g) => [g.reason, g.count, g.agents])).toEqual([
      ['page_exception', 3, ['checker', 'shopper']],
      ['http_5xx', 2, ['checker', 'shopper']],
      ['assertion_failed', 1, ['checker']],
    ]);
    expect(groups[0]).toMatchObject({ trend: 'new', pages: ['shop.test/orders/{n}/pay'], firstSeen: NOW - 80 * MIN, lastSeen: NOW - 25 * MIN });
    expect(groups[0]!.newest[0]).toMatch(/^fleet\/bundles\/2026\/11\/23\/afr-20261123T030000Z-bundle3\.zip$/);
    expect(groups[1]!.signature).toContain('GET shop.test/api/stock 503');
  });

  it('prints the groups for a person, biggest first, marked NEW', async () => {
    const { cli, out } = io(memoryFleet(FAILURES.map((f, i) => indexRecord(i + 1, f))));
    expect(await runCli(['triage', 's3://runs/fleet', '--since', '2h'], cli)).toBe(EXIT_OK);
    const lines = out.stdout.split('\n');
    expect(lines[0]).toBe('6 failures in 3 groups, biggest first');
    expect(lines.filter((l) => /^\s+\d+ {2}NEW {2}[0-9a-f]{16} {2}/.test(l)).map((l) => Number(l.trim().split(' ')[0]))).toEqual([3, 2, 1]);
    expect(out.stdout).toContain('page_exception: Error: order <n> could not be priced at <date>');
  });

  it('marks a cause seen before as steady, and groups old index objects without a fingerprint by reason and page', async () => {
    const earlier = indexRecord(7, [FAILURES[3]![0], 'shopper', 180]);
    const [key, old] = indexRecord(8, [FAILURES[5]![0], 'shopper', 30]);
    const { fingerprint: _f, signature: _s, ...withoutFingerprint } = old;
    const { cli, out } = io(memoryFleet([...FAILURES.map((f, i) => indexRecord(i + 1, f)), earlier, [key, withoutFingerprint]]));
    expect(await runCli(['triage', 's3://runs/fleet', '--since', '2h', '--json'], cli)).toBe(EXIT_OK);
    const { groups } = JSON.parse(out.stdout) as { groups: FailureGroup[] };
    expect(groups.find((g) => g.reason === 'http_5xx')).toMatchObject({ count: 2, previous: 1, trend: 'steady' });
    expect(groups.filter((g) => g.reason === 'assertion_failed').map((g) => g.count)).toEqual([1, 1]);
  });

  it('counts what it leaves out by kind (not JSON, another version, too large, another shape), naming a few keys escaped', async () => {
    const records = FAILURES.map((f, i) => indexRecord(i + 1, f));
    const day = 'fleet/index/2026/11/23/';
    const objects = new Map(records.map(([key, record]) => [key, new TextEncoder().encode(JSON.stringify(record))]));
    objects.set(`${day}a.json`, new TextEncoder().encode('{not json'));
    objects.set(`${day}b.json`, new TextEncoder().encode(JSON.stringify({ ...records[0]![1], index_version: 2 })));
    objects.set(`${day}c\x1b[2J.json`, new TextEncoder().encode(JSON.stringify({ hello: 1 })));
    objects.set(`${day}d.json`, new Uint8Array(70_000).fill(32));
    const fleet: FleetStore = {
      list: async (_b, prefix) => [...objects.keys()].filter((k) => k.startsWith(prefix)),
      get: async (_b, key, max) => {
        const bytes = objects.get(key) ?? null;
        if (bytes && bytes.byteLength > max) throw new ObjectTooLargeError(`${key} too large`);
        return bytes;
      },
      open: async () => null,
    };
    const { cli, out } = io(fleet);
    expect(await runCli(['triage', 's3://runs/fleet', '--since', '2h', '--json'], cli)).toBe(EXIT_OK);
    const { failures, skipped } = JSON.parse(out.stdout) as { failures: number; skipped: { count: number; kinds: Record<string, number> } };
    expect(failures).toBe(6);
    expect(skipped).toMatchObject({ count: 4, kinds: { 'not JSON': 1, 'another version': 1, 'not an index record': 1, 'too large': 1 } });
    expect(out.stderr).toContain('afr: left out 4 objects of the index: ');
    expect(out.stderr).toContain('c\\x1b[2J.json: not an index record');
    expect(out.stderr).not.toContain('\x1b');
  });

  it('draws a progress line on stderr only when it is a terminal, and clears it before the result', async () => {
    const fleet = memoryFleet(FAILURES.map((f, i) => indexRecord(i + 1, f)));
    const piped = io(fleet);
    await runCli(['triage', 's3://runs/fleet', '--since', '2h'], piped.cli);
    expect(piped.out.stderr).toBe('');
    const tty = io(fleet);
    tty.cli.stderrIsTerminal = () => true;
    await runCli(['triage', 's3://runs/fleet', '--since', '2h'], tty.cli);
    expect(tty.out.stderr.startsWith('\r\x1b[2Kafr triage: ')).toBe(true);
    expect(tty.out.stderr).toMatch(/afr triage: \d+ index objects read \(day 1 of 1\), 0 left out/);
    expect(tty.out.stderr.endsWith('\r\x1b[2K')).toBe(true);
  });

  it('writes an HTML report with presigned links opening in the viewer (--html FILE --presign)', async () => {
    const fleet = { ...memoryFleet(FAILURES.map((f, i) => indexRecord(i + 1, f))), presign: async (bucket: string, key: string, seconds: number) => `https://${bucket}.store.test/${key}?X-Amz-Expires=${seconds}&X-Amz-Signature=abc` };
    const { cli, out } = io(fleet);
    const written = new Map<string, Uint8Array>();
    cli.writeFile = async (file, bytes) => void written.set(file, bytes);
    expect(await runCli(['triage', 's3://runs/fleet', '--since', '2h', '--html', 'report.html', '--presign'], cli)).toBe(EXIT_OK);
    expect(out.stdout).toContain('report written to report.html');
    const html = new TextDecoder().decode(written.get('report.html'));
    expect(html).toContain('<svg xmlns="http://www.w3.org/2000/svg" id="chart"');
    expect(html).toContain(`href="chrome-extension://jaaohpahabfabmkanbnjkhpfligimhfi/viewer.html?bundle=${escapeHtml(encodeURIComponent('https://runs.store.test/fleet/bundles/2026/11/23/afr-20261123T030000Z-bundle3.zip?X-Amz-Expires=604800&X-Amz-Signature=abc'))}"`);
    expect(await runCli(['triage', 'folder', '--presign'], cli)).toBe(2);
  });

  describe('over a local copy of a bucket (a folder with index/)', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'afr-triage-copy-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('reads its index objects as the bucket would be read', async () => {
      for (const [key, record] of FAILURES.map((f, i) => indexRecord(i + 1, f))) {
        const file = path.join(dir, key.replace(/^fleet\//, ''));
        mkdirSync(path.dirname(file), { recursive: true });
        writeFileSync(file, JSON.stringify(record));
      }
      const { cli, out } = io();
      expect(await runCli(['triage', dir, '--since', '2h', '--json'], cli)).toBe(EXIT_OK);
      const { groups } = JSON.parse(out.stdout) as { groups: FailureGroup[] };
      expect(groups.map((g) => g.count)).toEqual([3, 2, 1]);
      const written = new Map<string, Uint8Array>();
      cli.writeFile = async (file, bytes) => void written.set(file, bytes);
      await runCli(['triage', dir, '--since', '2h', '--html', path.join(dir, 'report', 'r.html')], cli);
      expect(new TextDecoder().decode(written.get(path.join(dir, 'report', 'r.html')))).toContain('href="../bundles/2026/11/23/afr-20261123T030000Z-bundle3.zip"');
    });
  });

  describe('over a folder of bundles', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'afr-triage-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('fingerprints each bundle from its own files, the same as the recorder does', async () => {
      const base = bundleContents();
      for (const n of [1, 2]) {
        const id = `${BUNDLE_ID}${n}`;
        const zip = await makeBundle({ ...base, manifest: { ...base.manifest, bundle_id: id }, diagnostics: { ...base.diagnostics!, bundle_id: id }, steps: { ...base.steps, bundle_id: id } });
        writeFileSync(path.join(dir, `${id}.zip`), zip);
      }
      writeFileSync(path.join(dir, 'broken.zip'), 'not a zip');
      const { cli, out } = io();
      cli.now = () => new Date(T0 + 60 * MIN);
      expect(await runCli(['triage', dir, '--since', '2h', '--json'], cli)).toBe(EXIT_OK);
      const { groups } = JSON.parse(out.stdout) as { groups: FailureGroup[] };
      expect(groups).toHaveLength(1);
      expect(groups[0]).toMatchObject({ count: 2, reason: base.diagnostics!.failure.reason });
      const expected = fingerprintOf(failureSignature(failureFacts(base.diagnostics!.failure, base.steps.steps)));
      expect(groups[0]!.fingerprint).toBe(expected);
      expect(out.stderr).toMatch(/^afr: broken\.zip: .*left out$/m);
    });
  });
});

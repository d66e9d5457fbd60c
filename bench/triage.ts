/**
 * Section 8 of `npm run bench` (`BENCH_SECTIONS=8`): `afr triage` over a fleet's index, printed, never
 * asserted. BENCH_TRIAGE_OBJECTS index objects (default 10,000) of the test fleet's three causes
 * (`test/fixtures/cli/triage-fleet.ts`: each with its own ids, times and agents) ended in the last 6 h,
 * in a local copy of a bucket and in a real S3-protocol server on loopback (s3rver, in this process,
 * read through the AWS SDK); each read loose, then after `afr index compact` of their days. `bin/afr.mjs
 * triage` runs as its own process under `/usr/bin/time -v`: wall time and peak RSS. s3rver 3.7 encrypts
 * ListObjectsV2 continuation tokens with a cipher OpenSSL 3 disables: past 1,000 keys it answers 500
 * unless this process runs with `NODE_OPTIONS=--openssl-legacy-provider` (the store part is skipped
 * without it, saying so).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { forEachBounded } from '../src/shared/bounded-pool';
import { FAILURES, indexRecord } from '../test/fixtures/cli/triage-fleet';

const OBJECTS = Number(process.env.BENCH_TRIAGE_OBJECTS ?? 10_000);
const WINDOW_MINUTES = 6 * 60;

/** `afr …` under /usr/bin/time -v: wall seconds, peak RSS in MiB, its first output line. */
async function timed(args: string[], env: NodeJS.ProcessEnv): Promise<{ seconds: number; rssMiB: number; line: string }> {
  const started = performance.now();
  const run = await promisify(execFile)('/usr/bin/time', ['-v', process.execPath, path.resolve('bin/afr.mjs'), ...args], { env, maxBuffer: 64 * 1024 * 1024 }).catch(
    (error: { stdout: string; stderr: string }) => error,
  );
  const rss = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(run.stderr)?.[1] ?? NaN) / 1024;
  const line = run.stdout.trim().split('\n')[0] || run.stderr.split('\n').filter((l) => l.startsWith('afr')).join(' / ');
  return { seconds: (performance.now() - started) / 1000, rssMiB: rss, line };
}

/** The index objects: the fixture's six failures over and over, each its own bundle, spread over the window. */
function fleet(now: number): [string, string][] {
  return Array.from({ length: OBJECTS }, (_, i) => {
    const [cause, agent] = FAILURES[i % FAILURES.length]!;
    const [key, record] = indexRecord(i + 1, [cause, `${agent}-${i % 7}`, (i * WINDOW_MINUTES) / OBJECTS], 'fleet', now);
    const id = `afr-bench-${String(i).padStart(6, '0')}`;
    return [key.replace(/[^/]+\.json$/, `${id}.json`), JSON.stringify({ ...record, bundle_id: id, zip_key: record.zip_key.replace(/[^/]+\.zip$/, `${id}.zip`) })];
  });
}

const days = (objects: [string, string][]) => [...new Set(objects.map(([key]) => /index\/(\d{4})\/(\d{2})\/(\d{2})\//.exec(key)!.slice(1).join('-')))];

export async function triageBench(): Promise<void> {
  console.log(`\n8. afr triage over ${OBJECTS.toLocaleString('en')} index objects (three causes, ${WINDOW_MINUTES / 60} h), its own process: wall time and peak RSS`);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'afr-triage-bench-'));
  const objects = fleet(Date.now());
  const env = { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' };
  const report = (what: string, r: Awaited<ReturnType<typeof timed>>) => console.log(`   ${what.padEnd(34)} ${r.seconds.toFixed(2)} s, peak RSS ${r.rssMiB.toFixed(0)} MiB; ${r.line}`);
  try {
    const copy = path.join(dir, 'copy');
    for (const [key, text] of objects) {
      const file = path.join(copy, key.replace(/^fleet\//, ''));
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, text);
    }
    report('local copy, loose', await timed(['triage', copy, '--since', '24h'], env));
    for (const day of days(objects)) await timed(['index', 'compact', copy, '--day', day], env);
    report('local copy, compacted', await timed(['triage', copy, '--since', '24h'], env));

    if (!`${process.env.NODE_OPTIONS ?? ''} ${process.execArgv.join(' ')}`.includes('--openssl-legacy-provider') && OBJECTS > 1000) {
      console.log('   s3rver part skipped: run with NODE_OPTIONS=--openssl-legacy-provider (s3rver cannot list past 1,000 keys without it)');
      return;
    }
    const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: path.join(dir, 's3'), configureBuckets: [{ name: 'runs', configs: [] }] });
    const { port } = (await server.run()) as unknown as { port: number };
    try {
      const endpoint = `http://127.0.0.1:${port}`;
      const client = new S3Client({ endpoint, forcePathStyle: true, region: 'us-east-1', credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
      const putStart = performance.now();
      await forEachBounded(objects, 16, async ([key, text]) => void (await client.send(new PutObjectCommand({ Bucket: 'runs', Key: key, Body: text }))));
      console.log(`   (${OBJECTS.toLocaleString('en')} PUTs to s3rver: ${((performance.now() - putStart) / 1000).toFixed(1)} s)`);
      const s3env = { ...env, AWS_ENDPOINT_URL_S3: endpoint, AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_REGION: 'us-east-1' };
      report('s3rver on loopback, loose', await timed(['triage', 's3://runs/fleet', '--since', '24h'], s3env));
      for (const day of days(objects)) {
        const compact = await timed(['index', 'compact', 's3://runs/fleet', '--day', day], s3env);
        report(`  afr index compact --day ${day}`, compact);
      }
      report('s3rver on loopback, compacted', await timed(['triage', 's3://runs/fleet', '--since', '24h'], s3env));
    } finally {
      await server.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

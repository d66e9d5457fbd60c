/**
 * Peak memory of `afr pull` on a large delivered bundle, printed, never asserted:
 *   npx tsx bench/pull-memory.ts [zip=/tmp/afr-large-bundle.zip]
 * Make the zip first with `npx tsx bench/large-bundle.ts /tmp/afr-large-bundle.zip 5700 48` (~300 MiB).
 * A real S3-protocol server on loopback (s3rver, in this process) holds the zip and its index object
 * where the recorder would have put them; `bin/afr.mjs pull` runs as its own process under
 * `/usr/bin/time -v`, whose "Maximum resident set size" is the figure. The frames large-bundle.ts writes
 * are noise behind a JPEG marker, which validation reports as problems: `pull` then refuses the bundle
 * after validating it whole, so the figure includes the whole check. `BENCH_PULL_NO_MAX=1` leaves out
 * `--max-bytes`, for an `afr` older than it.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import JSZip from 'jszip';
import S3rver from 's3rver';
import { objectKeys } from '../src/bundle-format/bucket-layout';

const [zipFile = '/tmp/afr-large-bundle.zip'] = process.argv.slice(2);
const size = statSync(zipFile).size;
const manifest = JSON.parse(await (await JSZip.loadAsync(readFileSync(zipFile))).file('manifest.json')!.async('string')) as { bundle_id: string; ended_at: string };
const sha256 = await new Promise<string>((resolve, reject) => {
  const hash = createHash('sha256');
  createReadStream(zipFile).on('data', (chunk) => hash.update(chunk)).on('end', () => resolve(hash.digest('hex'))).on('error', reject);
});

const dir = mkdtempSync(path.join(os.tmpdir(), 'afr-pull-bench-'));
const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: path.join(dir, 's3'), configureBuckets: [{ name: 'runs', configs: [] }] });
const { port } = (await server.run()) as unknown as { port: number };
const endpoint = `http://127.0.0.1:${port}`;
try {
  const client = new S3Client({ endpoint, forcePathStyle: true, region: 'us-east-1', credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  const keys = objectKeys('fleet', manifest.bundle_id, manifest.ended_at);
  await client.send(new PutObjectCommand({ Bucket: 'runs', Key: keys.zip, Body: readFileSync(zipFile) }));
  const index = {
    index_version: 1, bundle_id: manifest.bundle_id, run_id: 'run-1', agent: null, agent_version: null, status: 'failure', reason: 'bench', label: null, url: null,
    started_at: manifest.ended_at, ended_at: manifest.ended_at, frame_count: 0, size_bytes: size, sha256, zip_key: keys.zip, extension_version: '0.1.0', browser_version: 'bench',
  };
  await client.send(new PutObjectCommand({ Bucket: 'runs', Key: keys.index, Body: JSON.stringify(index) }));

  const out = path.join(dir, 'out');
  (await import('node:fs')).mkdirSync(out);
  const env = { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', AWS_ENDPOINT_URL_S3: endpoint, AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_REGION: 'us-east-1' };
  const args = ['-v', process.execPath, path.resolve('bin/afr.mjs'), 'pull', `s3://runs/fleet/${manifest.bundle_id}`, '--out', out, ...(process.env.BENCH_PULL_NO_MAX ? [] : ['--max-bytes', String(size)])];
  const run = await promisify(execFile)('/usr/bin/time', args, { env, maxBuffer: 16 * 1024 * 1024 }).catch((error: { stdout: string; stderr: string; code: number }) => error);
  const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(run.stderr)?.[1];
  const seconds = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): ([\d:.]+)/.exec(run.stderr)?.[1];
  console.log(`object ${(size / 1024 / 1024).toFixed(1)} MiB; afr pull peak RSS ${rss ? (Number(rss) / 1024).toFixed(0) : '?'} MiB; wall ${seconds ?? '?'}`);
  console.log(run.stdout.trim().split('\n')[0] ?? '');
  const errLines = run.stderr.split('\n').filter((line) => line.startsWith('afr'));
  if (errLines.length) console.log(errLines.join('\n'));
} finally {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}

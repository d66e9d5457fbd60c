import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderJsonSchemas } from '../../schemas/generate';
import { BUNDLE_ID, editBundle, editJson, makeBundle } from '../../test/fixtures/cli/make-bundle';
import { objectKeys } from '../bundle-format/bucket-layout';
import { bundleSchemaFileNames, type BundleJsonSchemas } from './bundle-json-schemas';
import { EXIT_INVALID, EXIT_OK, EXIT_USAGE, type CliIo } from './command';
import type { FleetStore } from './fleet';
import { runCli } from './main';
import { nodeFiles } from './node-files';
import { sdkFleetStore } from './s3-node';

const rendered = renderJsonSchemas();
const schemas: BundleJsonSchemas = Object.fromEntries(
  Object.entries(bundleSchemaFileNames()).map(([file, schemaFile]) => [file, JSON.parse(rendered[schemaFile] ?? '{}') as object]),
);

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** The index object the recorder writes beside a delivered zip; `over` forges fields. */
function indexOf(id: string, zip: Uint8Array, over: Record<string, unknown> = {}) {
  return {
    index_version: 1, bundle_id: id, run_id: 'run-1', agent: 'shop-bot', agent_version: null, status: 'failure', reason: 'page_exception', label: null,
    url: 'https://shop.test/checkout', started_at: '2026-11-22T11:59:51.000Z', ended_at: '2026-11-22T12:00:00.000Z', frame_count: 4, size_bytes: zip.byteLength,
    sha256: sha256(zip), zip_key: objectKeys('fleet', id, '2026-11-22T12:00:00.000Z').zip, extension_version: '0.1.0', browser_version: 'Chromium 156', ...over,
  };
}

/** A bucket in memory that sends objects in 4 KiB chunks. */
function bucket(objects: Map<string, Uint8Array>): FleetStore {
  return {
    list: async (_b, prefix) => [...objects.keys()].filter((k) => k.startsWith(prefix)),
    get: async (_b, key) => objects.get(key) ?? null,
    open: async (_b, key) => {
      const bytes = objects.get(key);
      if (!bytes) return null;
      async function* chunks() {
        for (let at = 0; at < bytes!.byteLength; at += 4096) yield bytes!.subarray(at, at + 4096);
      }
      return { length: bytes.byteLength, chunks: chunks(), cancel: () => undefined };
    },
  };
}

let out: string;
beforeEach(() => {
  out = mkdtempSync(path.join(os.tmpdir(), 'afr-pull-'));
});
afterEach(() => rmSync(out, { recursive: true, force: true }));

/** `afr pull` with the real file system under `out` and the bucket in memory (or `store`). */
async function pull(objects: Map<string, Uint8Array>, id: string, ...extra: string[]) {
  return pullFrom(bucket(objects), id, ...extra);
}

async function pullFrom(store: FleetStore, id: string, ...extra: string[]) {
  const printed = { stdout: '', stderr: '' };
  const io: CliIo = {
    ...nodeFiles,
    loadSchemas: () => schemas,
    loadViewer: async () => ({ version: '0.1.0', script: 'document.title = "viewer";' }),
    version: () => '0.1.0',
    stdout: (text) => void (printed.stdout += text),
    stderr: (text) => void (printed.stderr += text),
    fleetStore: async () => store,
  };
  const code = await runCli(['pull', `s3://runs/fleet/${id}`, '--out', out, ...extra], io);
  return { code, ...printed };
}

/** The one line of a refusal, and nothing in --out (the hidden temporary file included). */
function expectRefused(result: { code: number; stdout: string; stderr: string }, message: RegExp) {
  expect(result.code).toBe(EXIT_INVALID);
  expect(result.stderr).toMatch(/^afr: [^\n]*\n$/);
  expect(result.stderr).toMatch(message);
  expect(result.stdout).toBe('');
  expect(readdirSync(out)).toEqual([]);
}

// The first validation compiles the JSON Schemas: seconds on a loaded machine.
describe('afr pull', { timeout: 30_000 }, () => {
  const delivered = (async () => {
    const zip = await makeBundle();
    const keys = objectKeys('fleet', BUNDLE_ID, '2026-11-22T12:00:00.000Z');
    return { zip, keys, objects: (index: object, zipBytes = zip) => new Map([[keys.zip, zipBytes], [keys.index, new TextEncoder().encode(JSON.stringify(index))]]) };
  })();

  it('downloads, checks and validates a delivered bundle, then keeps it under its id', async () => {
    const { zip, objects } = await delivered;
    const result = await pull(objects(indexOf(BUNDLE_ID, zip)), BUNDLE_ID);
    expect(result.code).toBe(EXIT_OK);
    expect(result.stdout).toContain('SHA-256 matches the index');
    expect(result.stdout).toMatch(/valid: afr-20261122T120000Z-test01/);
    expect(readdirSync(out)).toEqual([`${BUNDLE_ID}.zip`]);
    expect(new Uint8Array(readFileSync(path.join(out, `${BUNDLE_ID}.zip`)))).toEqual(zip);
  });

  it('refuses an index whose zip_key points into another prefix, naming both keys', async () => {
    const { zip, keys } = await delivered;
    const foreignKey = `other/bundles/2026/11/22/${BUNDLE_ID}.zip`;
    const objects = new Map([[foreignKey, zip], [keys.index, new TextEncoder().encode(JSON.stringify(indexOf(BUNDLE_ID, zip, { zip_key: foreignKey })))]]);
    expectRefused(await pull(objects, BUNDLE_ID), new RegExp(`its zip_key is s3://runs/${foreignKey}, not s3://runs/${keys.zip} `));
  });

  it('refuses a bundle whose manifest names another id than the one asked for', async () => {
    const { zip } = await delivered;
    const asked = 'afr-20261122T120000Z-other1';
    const keys = objectKeys('fleet', asked, '2026-11-22T12:00:00.000Z');
    const objects = new Map([[keys.zip, zip], [keys.index, new TextEncoder().encode(JSON.stringify(indexOf(asked, zip)))]]);
    expectRefused(await pull(objects, asked), /its manifest names bundle "afr-20261122T120000Z-test01", not afr-20261122T120000Z-other1; not kept$/m);
  });

  it('refuses an object over --max-bytes before reading it', async () => {
    const { zip, objects } = await delivered;
    expectRefused(await pull(objects(indexOf(BUNDLE_ID, zip)), BUNDLE_ID, '--max-bytes', String(zip.byteLength - 1)), /more than the \d+ allowed \(--max-bytes\)/);
  });

  it('refuses an object whose bytes are not those the index names', async () => {
    const { zip, objects } = await delivered;
    const tampered = zip.slice();
    tampered[tampered.byteLength - 30] = tampered.at(-30)! ^ 0xff;
    expectRefused(await pull(objects(indexOf(BUNDLE_ID, zip), tampered), BUNDLE_ID), /its SHA-256 is [0-9a-f]{64}, the index says [0-9a-f]{64}$/m);
  });

  it('refuses an invalid bundle whose checksum matches its (forged) index, keeping nothing', async () => {
    const { objects } = await delivered;
    const broken = await editBundle(await makeBundle(), (files) => editJson(files, 'manifest.json', (m) => void (m.frame_count = 99)));
    expectRefused(await pull(objects(indexOf(BUNDLE_ID, broken), broken), BUNDLE_ID), /invalid: \d+ problems? in afr-20261122T120000Z-test01 \(manifest\.json[^)]*\); not kept$/m);
  });

  it('never replaces a file of that name in --out', async () => {
    const { zip, objects } = await delivered;
    writeFileSync(path.join(out, `${BUNDLE_ID}.zip`), 'mine');
    const result = await pull(objects(indexOf(BUNDLE_ID, zip)), BUNDLE_ID);
    expect(result.code).toBe(EXIT_INVALID);
    expect(result.stderr).toMatch(/exists already; not replaced\n$/);
    expect(readdirSync(out)).toEqual([`${BUNDLE_ID}.zip`]);
    expect(readFileSync(path.join(out, `${BUNDLE_ID}.zip`), 'utf8')).toBe('mine');
  });

  it('says in one line when --out cannot be written', async () => {
    const { zip, objects } = await delivered;
    const result = await pull(objects(indexOf(BUNDLE_ID, zip)), BUNDLE_ID, '--out', path.join(out, 'missing'));
    expect(result.code).toBe(EXIT_USAGE);
    expect(result.stderr).toMatch(/^afr: [^\n]*missing: cannot write there \(ENOENT[^\n]*\n$/);
  });
});

describe('afr pull from a real S3-protocol server (s3rver, through the AWS SDK)', { timeout: 30_000 }, () => {
  it('keeps a delivered bundle, and refuses an object longer than its index says before reading it', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'afr-pull-s3rver-'));
    const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: 'runs', configs: [] }] });
    const { port } = (await server.run()) as unknown as { port: number };
    try {
      const env = { AWS_ENDPOINT_URL_S3: `http://127.0.0.1:${port}`, AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_REGION: 'us-east-1' };
      const { S3Client, PutObjectCommand } = await import('@aws-sdk/client-s3');
      const client = new S3Client({ endpoint: env.AWS_ENDPOINT_URL_S3, forcePathStyle: true, region: 'us-east-1', credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
      const zip = await makeBundle();
      const keys = objectKeys('fleet', BUNDLE_ID, '2026-11-22T12:00:00.000Z');
      await client.send(new PutObjectCommand({ Bucket: 'runs', Key: keys.zip, Body: zip }));
      await client.send(new PutObjectCommand({ Bucket: 'runs', Key: keys.index, Body: JSON.stringify(indexOf(BUNDLE_ID, zip)) }));
      const ok = await pullFrom(sdkFleetStore(env), BUNDLE_ID);
      expect(ok.code).toBe(EXIT_OK);
      expect(readdirSync(out)).toEqual([`${BUNDLE_ID}.zip`]);
      rmSync(path.join(out, `${BUNDLE_ID}.zip`));

      // The index claims a smaller object than the bucket holds (as a swapped zip would be).
      await client.send(new PutObjectCommand({ Bucket: 'runs', Key: keys.index, Body: JSON.stringify(indexOf(BUNDLE_ID, zip, { size_bytes: 100 })) }));
      expectRefused(await pullFrom(sdkFleetStore(env), BUNDLE_ID), new RegExp(`the bucket says ${zip.byteLength} bytes, the index 100$`, 'm'));
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

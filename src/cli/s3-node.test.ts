import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sdkFleetStore } from './s3-node';

// A real S3-protocol server on loopback (s3rver), read through the AWS SDK as `afr ls` / `afr pull` do.
let server: S3rver;
let dir: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'afr-s3rver-'));
  server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: 'runs', configs: [] }] });
  const { port } = (await server.run()) as unknown as { port: number };
  env = { AWS_ENDPOINT_URL_S3: `http://127.0.0.1:${port}`, AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_REGION: 'us-east-1' };
  const { S3Client, PutObjectCommand } = await import('@aws-sdk/client-s3');
  const client = new S3Client({ endpoint: env.AWS_ENDPOINT_URL_S3, forcePathStyle: true, region: 'us-east-1', credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  for (let i = 0; i < 3; i++) await client.send(new PutObjectCommand({ Bucket: 'runs', Key: `fleet/index/2026/11/25/b${i}.json`, Body: `{"n":${i}}` }));
  await client.send(new PutObjectCommand({ Bucket: 'runs', Key: 'fleet/bundles/2026/11/25/b0.zip', Body: new Uint8Array(2048) }));
});

afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('sdkFleetStore', () => {
  it('lists keys under a prefix and reads objects', async () => {
    const store = sdkFleetStore(env);
    expect((await store.list('runs', 'fleet/index/2026/11/25/')).sort()).toEqual(['b0', 'b1', 'b2'].map((b) => `fleet/index/2026/11/25/${b}.json`));
    expect(new TextDecoder().decode((await store.get('runs', 'fleet/index/2026/11/25/b1.json', 1024))!)).toBe('{"n":1}');
  });

  it('answers null for a missing key and refuses an object over the bound', async () => {
    const store = sdkFleetStore(env);
    expect(await store.get('runs', 'fleet/none.json', 1024)).toBeNull();
    await expect(store.get('runs', 'fleet/bundles/2026/11/25/b0.zip', 1024)).rejects.toThrow(/more than the 1024/);
  });

  it('opens an object as a stream of chunks with its declared length, null for a missing key', async () => {
    const store = sdkFleetStore(env);
    const object = (await store.open('runs', 'fleet/bundles/2026/11/25/b0.zip'))!;
    expect(object.length).toBe(2048);
    let size = 0;
    for await (const chunk of object.chunks) size += chunk.byteLength;
    expect(size).toBe(2048);
    expect(await store.open('runs', 'fleet/none.zip')).toBeNull();
    // Refused on its declared length, unread: the transfer ends.
    const refused = (await store.open('runs', 'fleet/bundles/2026/11/25/b0.zip'))!;
    refused.cancel();
    expect((refused.chunks as unknown as { destroyed: boolean }).destroyed).toBe(true);
  });

  it('lists a page at a time, writes an object, and presigns a GET link that reads it without credentials', async () => {
    const store = sdkFleetStore(env);
    const pages: string[][] = [];
    for await (const page of store.listPages!('runs', 'fleet/index/')) pages.push(page);
    expect(pages.flat().sort()).toEqual(['b0', 'b1', 'b2'].map((b) => `fleet/index/2026/11/25/${b}.json`));
    await store.put!('runs', 'fleet/index-compact/2026/11/25.parquet', new TextEncoder().encode('PAR1'), 'application/vnd.apache.parquet');
    const url = await store.presign!('runs', 'fleet/index-compact/2026/11/25.parquet', 3600);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/runs\/fleet\/index-compact\/2026\/11\/25\.parquet\?.*X-Amz-Expires=3600.*X-Amz-Signature=[0-9a-f]{64}/);
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('PAR1');
  });
});

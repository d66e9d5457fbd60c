import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { FakeS3 } from '../../test/fakes/s3-store';
import { checksumsOf } from './checksums';
import { objectUrl, s3Target, type S3Config } from './s3-target';
import { UploadError } from './upload-error';

const credentials = { accessKeyId: 'AKIDFLEET', secretAccessKey: 'fleet-secret', region: 'eu-west-1' };
const config: S3Config = { endpoint: 'http://127.0.0.1:9000', bucket: 'runs', forcePathStyle: true, ...credentials };
const bytes = new TextEncoder().encode('zip bytes');

async function put(store: FakeS3, target = s3Target(config, store.fetch), key = 'a/b.zip') {
  await target.put({ key, bundleId: 'b', kind: 'zip', body: bytes, sums: await checksumsOf(bytes), contentType: 'application/zip' });
}

describe('s3Target', () => {
  it('writes a signed object the store confirms by its MD5', async () => {
    const store = new FakeS3('runs', credentials);
    await put(store);
    expect(store.objects.get('a/b.zip')).toEqual(bytes);
  });

  it('reports a wrong secret as an auth error, which is not retried', async () => {
    const store = new FakeS3('runs', credentials);
    const error = await put(store, s3Target({ ...config, secretAccessKey: 'wrong' }, store.fetch)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UploadError);
    expect(error).toMatchObject({ kind: 'auth', status: 403, code: 'SignatureDoesNotMatch' });
    expect(store.objects.size).toBe(0);
  });

  it('reports a missing bucket as a config error and an unreachable store as transient', async () => {
    const store = new FakeS3('other', credentials);
    await expect(put(store)).rejects.toMatchObject({ kind: 'config', code: 'NoSuchBucket' });
    store.down = true;
    await expect(put(store)).rejects.toMatchObject({ kind: 'transient', message: expect.stringMatching(/no answer from the store/) });
  });

  it('treats a 5xx and a damaged body as transient', async () => {
    const store = new FakeS3('runs', credentials);
    store.failNext(() => true, 503, 'SlowDown');
    await expect(put(store)).rejects.toMatchObject({ kind: 'transient', status: 503 });
    store.failNext(() => true, 400, 'BadDigest');
    await expect(put(store)).rejects.toMatchObject({ kind: 'transient', code: 'BadDigest' });
  });

  it('does not count a PUT whose answer does not confirm the bytes', async () => {
    const target = s3Target(config, async () => new Response('', { headers: { etag: '"0123456789abcdef0123456789abcdef"' } }));
    await expect(put(new FakeS3('runs', credentials), target)).rejects.toMatchObject({ kind: 'transient', message: expect.stringMatching(/not the MD5/) });
  });

  it('accepts a matching x-amz-checksum-sha256 echo in place of an MD5 ETag', async () => {
    const sha = createHash('sha256').update(bytes).digest('base64');
    const target = s3Target(config, async () => new Response('', { headers: { etag: '"kms-encrypted-etag"', 'x-amz-checksum-sha256': sha } }));
    await expect(put(new FakeS3('runs', credentials), target)).resolves.toBeUndefined();
  });

  it('assembles a multipart upload the store confirms', async () => {
    const store = new FakeS3('runs', credentials);
    const target = s3Target(config, store.fetch);
    const id = await target.multipart!.create('big.zip', 'application/zip');
    const parts = [new Uint8Array(10).fill(1), new Uint8Array(4).fill(2)];
    const etags = [];
    for (const [i, part] of parts.entries()) etags.push(await target.multipart!.uploadPart('big.zip', id, i + 1, part, await checksumsOf(part)));
    const whole = new Uint8Array([...parts[0]!, ...parts[1]!]);
    await target.multipart!.complete('big.zip', id, etags, (await checksumsOf(whole)).md5Hex);
    expect(store.objects.get('big.zip')).toEqual(whole);
  });

  it('refuses a completion whose ETag matches neither the parts nor the whole object', async () => {
    const target = s3Target(config, async () => new Response('<CompleteMultipartUploadResult><ETag>"ffff-2"</ETag></CompleteMultipartUploadResult>'));
    await expect(target.multipart!.complete('big.zip', 'u1', ['00'.repeat(16), '11'.repeat(16)], '22'.repeat(16))).rejects.toMatchObject({ kind: 'transient' });
  });

  it('probes by writing and deleting a small object', async () => {
    const store = new FakeS3('runs', credentials);
    await s3Target(config, store.fetch).probe('probe/x.txt');
    expect(store.requests.map((r) => r.method)).toEqual(['PUT', 'DELETE']);
    expect(store.objects.size).toBe(0);
  });
});

describe('objectUrl', () => {
  it('puts the bucket in the path or in the host', () => {
    expect(objectUrl({ endpoint: 'https://s3.example.com/', bucket: 'b', forcePathStyle: true }, 'x y/z.zip')).toBe('https://s3.example.com/b/x%20y/z.zip');
    expect(objectUrl({ endpoint: 'https://s3.eu-west-1.amazonaws.com', bucket: 'b', forcePathStyle: false }, 'k', 'uploads=')).toBe(
      'https://b.s3.eu-west-1.amazonaws.com/k?uploads=',
    );
  });
});

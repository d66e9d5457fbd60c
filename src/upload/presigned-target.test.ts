import { AwsV4Signer } from 'aws4fetch';
import { describe, expect, it } from 'vitest';
import { FakeS3 } from '../../test/fakes/s3-store';
import { checksumsOf } from './checksums';
import type { Fetch } from './ports';
import { presignedTarget } from './presigned-target';

const credentials = { accessKeyId: 'AKIDTEAM', secretAccessKey: 'team-secret', region: 'us-east-1' };
const PRESIGN = 'https://presign.example.test/upload-url';

/** The team's presign service in front of a store: it alone knows the secret and signs one PUT. */
function service(store: FakeS3, answer?: (body: Record<string, unknown>) => Response): { fetch: Fetch; asked: Record<string, unknown>[] } {
  const asked: Record<string, unknown>[] = [];
  const fetch: Fetch = async (input, init) => {
    const url = typeof input === 'string' ? input : input.url;
    if (url !== PRESIGN) return store.fetch(input, init);
    const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
    asked.push(body);
    if (answer) return answer(body);
    const signed = await new AwsV4Signer({ method: 'PUT', url: `http://127.0.0.1:9000/runs/${String(body.key)}`, service: 's3', signQuery: true, ...credentials }).sign();
    return Response.json({ url: signed.url.toString(), headers: {} });
  };
  return { fetch, asked };
}

const bytes = new TextEncoder().encode('bundle');

describe('presignedTarget', () => {
  it('asks the service with the bundle id, size, SHA-256 and kind, then PUTs to the URL it gets', async () => {
    const store = new FakeS3('runs', credentials);
    const { fetch, asked } = service(store);
    const sums = await checksumsOf(bytes);
    await presignedTarget(PRESIGN, fetch).put({ key: 'k/b1.zip', bundleId: 'b1', kind: 'zip', body: bytes, sums, contentType: 'application/zip' });
    expect(asked).toEqual([{ bundleId: 'b1', sizeBytes: bytes.length, sha256: sums.sha256Hex, kind: 'zip', key: 'k/b1.zip' }]);
    expect(store.objects.get('k/b1.zip')).toEqual(bytes);
  });

  it('says plainly when the service answers something else than {url, headers}', async () => {
    const store = new FakeS3('runs', credentials);
    const { fetch } = service(store, () => Response.json({ link: 'x' }));
    const put = presignedTarget(PRESIGN, fetch).put({ key: 'k', bundleId: 'b1', kind: 'zip', body: bytes, sums: await checksumsOf(bytes), contentType: 'application/zip' });
    await expect(put).rejects.toMatchObject({ kind: 'config', message: expect.stringMatching(/not \{url, headers\}/) });
  });

  it('passes a refusal of the service on as an auth error', async () => {
    const { fetch } = service(new FakeS3('runs', credentials), () => new Response('no', { status: 401 }));
    const put = presignedTarget(PRESIGN, fetch).put({ key: 'k', bundleId: 'b1', kind: 'zip', body: bytes, sums: await checksumsOf(bytes), contentType: 'application/zip' });
    await expect(put).rejects.toMatchObject({ kind: 'auth', status: 401 });
  });

  it('has no multipart: a presigned URL names one PUT', () => {
    expect(presignedTarget(PRESIGN, async () => new Response()).multipart).toBeNull();
  });
});

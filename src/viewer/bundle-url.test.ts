import { describe, expect, it } from 'vitest';
import { bundleUrlOf, fetchBundle } from './bundle-url';

const PRESIGNED = 'https://runs.s3.amazonaws.com/fleet/bundles/2026/11/25/b1.zip?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Signature=abc&X-Amz-Date=20261125T090000Z';

describe('bundleUrlOf', () => {
  it('keeps a pasted presigned link whole, its own query string included', () => {
    expect(bundleUrlOf(`?bundle=${PRESIGNED}`)).toBe(PRESIGNED);
    expect(bundleUrlOf(`?theme=dark&bundle=${PRESIGNED}`)).toBe(PRESIGNED);
  });

  it('decodes a link that was encoded', () => {
    expect(bundleUrlOf(`?bundle=${encodeURIComponent(PRESIGNED)}`)).toBe(PRESIGNED);
  });

  it('is null without the parameter', () => {
    expect(bundleUrlOf('?id=b1')).toBeNull();
    expect(bundleUrlOf('')).toBeNull();
  });
});

describe('fetchBundle', () => {
  const bytes = new Uint8Array([0x50, 0x4b, 3, 4, 9, 9]);

  it('reads the bytes at the link', async () => {
    expect(await fetchBundle(PRESIGNED, async () => new Response(bytes))).toEqual(bytes);
  });

  it('refuses links that are not https (http only on loopback)', async () => {
    await expect(fetchBundle('http://bucket.example.com/b.zip', async () => new Response(bytes))).rejects.toThrow(/only https links/);
    await expect(fetchBundle('file:///etc/passwd', async () => new Response(bytes))).rejects.toThrow(/only https links/);
    expect(await fetchBundle('http://127.0.0.1:4568/b.zip', async () => new Response(bytes))).toEqual(bytes);
  });

  it('stops reading past the bound, whatever the server declares', async () => {
    const endless = new ReadableStream<Uint8Array>({ pull: (c) => c.enqueue(new Uint8Array(1024)) });
    await expect(fetchBundle(PRESIGNED, async () => new Response(endless), 10_000)).rejects.toThrow(/more than the 10000 bytes/);
    await expect(fetchBundle(PRESIGNED, async () => new Response(bytes, { headers: { 'content-length': '99999' } }), 10_000)).rejects.toThrow(/99999 bytes/);
  });

  it('says an expired link may be the cause of a 403', async () => {
    await expect(fetchBundle(PRESIGNED, async () => new Response('', { status: 403 }))).rejects.toThrow(/presigned link expires/);
  });
});

import { describe, expect, it } from 'vitest';
import { BUNDLE_FETCH_INIT, bundleUrlOf, fetchBundle } from './bundle-url';

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

  it('asks without credentials and without following redirects', async () => {
    const inits: RequestInit[] = [];
    await fetchBundle(PRESIGNED, async (_url, init) => {
      inits.push(init);
      return new Response(bytes);
    });
    expect(inits).toEqual([BUNDLE_FETCH_INIT]);
    expect(BUNDLE_FETCH_INIT).toMatchObject({ credentials: 'omit', redirect: 'manual' });
  });

  /** What a browser's fetch gives for a redirect under `redirect: 'manual'`: an opaque response, status 0. */
  const opaqueRedirect = () => ({ type: 'opaqueredirect', status: 0, ok: false, redirected: false, headers: new Headers(), body: null }) as unknown as Response;

  it.each([
    ['an opaque redirect (a browser under redirect: manual)', opaqueRedirect],
    ['a 302 to a loopback address handed over as it is', () => new Response(null, { status: 302, headers: { location: 'http://127.0.0.2/admin' } })],
    ['a 307 to a private address', () => new Response(null, { status: 307, headers: { location: 'http://10.0.0.5/' } })],
    ['a response a fetch followed anyway', () => Object.defineProperty(new Response(bytes), 'redirected', { value: true })],
  ])('refuses %s, by name', async (_name, answer) => {
    await expect(fetchBundle(PRESIGNED, async () => answer())).rejects.toThrow(/runs\.s3\.amazonaws\.com answered with a redirect, which the viewer does not follow/);
  });

  it.each(['https://10.0.0.5/b.zip', 'https://192.168.1.2/b.zip', 'https://169.254.169.254/latest', 'https://[fe80::1]/b.zip', 'https://nas.local/b.zip', 'http://10.0.0.5/b.zip'])(
    'refuses a link to a private or local network address, unasked: %s',
    async (link) => {
      let asked = false;
      const answer = async () => {
        asked = true;
        return new Response(bytes);
      };
      await expect(fetchBundle(link, answer)).rejects.toThrow(/private or local network address|only https links/);
      expect(asked).toBe(false);
    },
  );

  it('opens a link to this machine, https or http (a store beside the browser)', async () => {
    expect(await fetchBundle('https://localhost:9000/b.zip', async () => new Response(bytes))).toEqual(bytes);
    expect(await fetchBundle('http://127.0.0.2:9000/b.zip', async () => new Response(bytes))).toEqual(bytes);
  });

  it('refuses a declared size over the bound before reading any of the body', async () => {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({ pull: (c) => void (pulled++, c.enqueue(new Uint8Array(1024))) }, { highWaterMark: 0 });
    await expect(fetchBundle(PRESIGNED, async () => new Response(body, { headers: { 'content-length': String(2 * 1024 ** 3) } }))).rejects.toThrow(/2147483648 bytes, more than the 1073741824/);
    expect(pulled).toBe(0);
  });
});

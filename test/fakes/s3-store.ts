import { createHash } from 'node:crypto';
import { signedRight } from './sigv4-check';
import type { Fetch } from '../../src/upload/ports';

/**
 * An S3-protocol store in memory, speaking through `fetch`: it checks SigV4 signatures (re-signing
 * with the secret it knows), `Content-MD5`, and answers with S3's ETags and XML errors. `down` makes
 * every request fail as an unreachable host would; `failNext` answers the next matching request with
 * an S3 error.
 */
export class FakeS3 {
  readonly objects = new Map<string, Uint8Array>();
  readonly requests: { method: string; key: string; query: string }[] = [];
  down = false;
  private readonly uploads = new Map<string, { key: string; parts: Map<number, Uint8Array> }>();
  private failures: { match: (method: string, query: string) => boolean; status: number; code: string }[] = [];
  private nextUpload = 1;

  constructor(
    readonly bucket: string,
    private readonly credentials: { accessKeyId: string; secretAccessKey: string; region: string },
  ) {}

  failNext(match: (method: string, query: string) => boolean, status: number, code: string): void {
    this.failures.push({ match, status, code });
  }

  /** Keys of the objects kept, sorted. */
  keys(): string[] {
    return [...this.objects.keys()].sort();
  }

  readonly fetch: Fetch = async (input, init) => {
    if (this.down) throw new TypeError('fetch failed: connect ECONNREFUSED 127.0.0.1:9');
    const url = new URL(typeof input === 'string' ? input : input.url);
    const method = (init?.method ?? 'GET').toUpperCase();
    const headers = new Headers(init?.headers);
    const body = init?.body ? new Uint8Array(init.body as ArrayBuffer) : new Uint8Array();
    const [, bucket, ...rest] = url.pathname.split('/');
    const key = rest.map(decodeURIComponent).join('/');
    const query = url.search.slice(1);
    this.requests.push({ method, key, query });
    if (bucket !== this.bucket) return error(404, 'NoSuchBucket');
    if (!(await signedRight(this.credentials, url, method, headers, body))) return error(403, 'SignatureDoesNotMatch');
    const failure = this.failures.findIndex((f) => f.match(method, query));
    if (failure >= 0) {
      const [f] = this.failures.splice(failure, 1);
      return error(f!.status, f!.code);
    }
    const md5 = headers.get('content-md5');
    if (md5 !== null && md5 !== createHash('md5').update(body).digest('base64')) return error(400, 'BadDigest');
    const params = url.searchParams;
    if (method === 'PUT' && params.has('partNumber')) {
      const upload = this.uploads.get(params.get('uploadId') ?? '');
      if (!upload) return error(404, 'NoSuchUpload');
      upload.parts.set(Number(params.get('partNumber')), body);
      return new Response('', { headers: { etag: `"${hex(body)}"` } });
    }
    if (method === 'PUT') {
      this.objects.set(key, body);
      return new Response('', { headers: { etag: `"${hex(body)}"` } });
    }
    if (method === 'POST' && params.has('uploads')) {
      const id = `upload-${this.nextUpload++}`;
      this.uploads.set(id, { key, parts: new Map() });
      return new Response(`<InitiateMultipartUploadResult><UploadId>${id}</UploadId></InitiateMultipartUploadResult>`);
    }
    if (method === 'POST' && params.has('uploadId')) {
      const upload = this.uploads.get(params.get('uploadId') ?? '');
      if (!upload) return error(404, 'NoSuchUpload');
      const numbers = [...new TextDecoder().decode(body).matchAll(/<PartNumber>(\d+)<\/PartNumber>/g)].map((m) => Number(m[1]));
      const parts = numbers.map((n) => upload.parts.get(n));
      if (parts.some((p) => !p)) return error(400, 'InvalidPart');
      const all = Buffer.concat(parts as Uint8Array[]);
      this.objects.set(upload.key, new Uint8Array(all));
      this.uploads.delete(params.get('uploadId')!);
      const etag = `${createHash('md5').update(Buffer.concat(parts.map((p) => createHash('md5').update(p!).digest()))).digest('hex')}-${parts.length}`;
      return new Response(`<CompleteMultipartUploadResult><Key>${key}</Key><ETag>&quot;${etag}&quot;</ETag></CompleteMultipartUploadResult>`);
    }
    if (method === 'DELETE' && params.has('uploadId')) {
      this.uploads.delete(params.get('uploadId')!);
      return new Response(null, { status: 204 });
    }
    if (method === 'DELETE') {
      this.objects.delete(key);
      return new Response(null, { status: 204 });
    }
    return error(405, 'MethodNotAllowed');
  };
}

const hex = (body: Uint8Array) => createHash('md5').update(body).digest('hex');

function error(status: number, code: string): Response {
  return new Response(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${code} (fake store)</Message></Error>`, { status });
}

import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { signedRight } from '../../test/fakes/sigv4-check';

export const S3_CREDENTIALS = { accessKeyId: 'AKIDAFRTEST', secretAccessKey: 'afr-test-secret-do-not-ship', region: 'us-east-1' };

/**
 * A real S3-protocol server on loopback (s3rver, writing to a temporary folder) behind a front that
 * checks SigV4 signatures as S3 does (s3rver accepts any SigV4 signature of a key id it knows) and can
 * go down and come back on the same port, as a store does in an outage.
 */
export interface S3Store {
  endpoint: string;
  bucket: string;
  /** Objects kept, by key. */
  objects(): Promise<Map<string, Uint8Array>>;
  /** Requests the front saw, in order (method, key and query, when answered), signature refusals included. */
  requests: { method: string; path: string; status: number; at: number }[];
  down(): void;
  up(): void;
  /**
   * Goes down right after answering the first request `after` matches (a confirmed part, say): the
   * next request finds the store gone, as when the network drops mid-upload.
   */
  downAfter(after: (request: { method: string; path: string; status: number }) => boolean): void;
  /** Reads request bodies at this many bytes a second (a slow link), or at full speed with null. */
  throttle(bytesPerSecond: number | null): void;
  /** Requests received and not answered yet. */
  inFlight(): number;
  close(): Promise<void>;
}

export async function startS3Store(bucket = 'afr-runs'): Promise<S3Store> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'afr-s3-'));
  const backend = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: bucket, configs: [] }] });
  const { port: backendPort } = (await backend.run()) as unknown as AddressInfo;
  const requests: S3Store['requests'] = [];
  let isDown = false;
  let downAfter: ((request: { method: string; path: string; status: number }) => boolean) | null = null;
  let bytesPerSecond: number | null = null;
  let inFlight = 0;

  const front = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    inFlight++;
    res.on('close', () => inFlight--);
    req.on('data', (c: Buffer) => {
      chunks.push(c);
      if (bytesPerSecond === null) return;
      req.pause();
      setTimeout(() => req.resume(), (c.length / bytesPerSecond) * 1000);
    });
    req.on('end', () => {
      void (async () => {
        const body = new Uint8Array(Buffer.concat(chunks));
        const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
        const headers = new Headers();
        for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
        const record = (status: number) => {
          const request = { method: req.method ?? '', path: `${url.pathname}${url.search}`, status, at: Date.now() };
          requests.push(request);
          if (downAfter?.(request)) {
            downAfter = null;
            isDown = true;
          }
        };
        if (isDown) {
          record(503);
          res.socket?.destroy();
          return;
        }
        if (!(await signedRight(S3_CREDENTIALS, url, req.method ?? 'GET', headers, body))) {
          record(403);
          res.writeHead(403, { 'content-type': 'application/xml' });
          res.end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>SignatureDoesNotMatch</Code><Message>The request signature we calculated does not match the signature you provided.</Message></Error>');
          return;
        }
        // Checked here: s3rver gets the request as its own key's, the query's signature left out.
        const backendUrl = new URL(url);
        for (const name of [...backendUrl.searchParams.keys()]) if (name.startsWith('X-Amz-')) backendUrl.searchParams.delete(name);
        const forwardedHeaders = {
          // What s3rver wants of a signed request (a presigned one carries neither).
          'x-amz-content-sha256': 'UNSIGNED-PAYLOAD',
          'x-amz-date': new Date().toISOString().replace(/[:-]|\.\d{3}/g, ''),
          ...req.headers,
          authorization: 'AWS4-HMAC-SHA256 Credential=S3RVER/20260101/us-east-1/s3/aws4_request, SignedHeaders=host, Signature=0',
        };
        const forwarded = http.request(
          { host: '127.0.0.1', port: backendPort, method: req.method, path: `${backendUrl.pathname}${backendUrl.search}`, headers: forwardedHeaders },
          (answer) => {
            record(answer.statusCode ?? 0);
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        forwarded.on('error', () => res.destroy());
        forwarded.end(body);
      })();
    });
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;

  return {
    endpoint,
    bucket,
    requests,
    async objects() {
      process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
      const { S3Client, ListObjectsV2Command, GetObjectCommand } = await import('@aws-sdk/client-s3');
      const client = new S3Client({ endpoint: `http://127.0.0.1:${backendPort}`, forcePathStyle: true, region: 'us-east-1', credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
      const out = new Map<string, Uint8Array>();
      const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
      for (const { Key } of listed.Contents ?? []) {
        if (!Key) continue;
        const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key }));
        out.set(Key, await object.Body!.transformToByteArray());
      }
      return out;
    },
    down: () => void (isDown = true),
    up: () => void (isDown = false),
    downAfter: (after) => void (downAfter = after),
    throttle: (rate) => void (bytesPerSecond = rate),
    inFlight: () => inFlight,
    async close() {
      await new Promise<void>((resolve) => front.close(() => resolve()));
      await backend.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

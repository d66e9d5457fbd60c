import { AwsV4Signer } from 'aws4fetch';
import { checksumsOf, multipartEtag, bareEtag, type Checksums } from './checksums';
import { confirmPut } from './confirm';
import { probeObject } from './probe-object';
import type { Fetch, MultipartTarget, ObjectPut, ObjectTarget } from './ports';
import { networkError, storeError, UploadError, xmlText } from './upload-error';

/** An S3-compatible bucket and the credentials that write to it (`upload.s3` in the settings). */
export interface S3Config {
  endpoint: string;
  bucket: string;
  region: string;
  forcePathStyle: boolean;
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string | undefined;
}

/**
 * Writes objects to an S3-compatible store (AWS S3, Cloudflare R2, MinIO, GCS interoperability) with
 * SigV4 signatures (aws4fetch's signer: a small, fetch-native implementation). Every request signs its
 * payload's SHA-256 and sends `Content-MD5`, so the store refuses damaged bytes; a PUT counts only
 * when the store's answer confirms the checksum.
 */
export function s3Target(config: S3Config, fetchFn: Fetch): ObjectTarget {
  const send = async (what: string, method: string, key: string, query: string, headers: Record<string, string>, body?: Uint8Array): Promise<Response> => {
    const signer = new AwsV4Signer({
      method,
      url: objectUrl(config, key, query),
      headers,
      body: body as BodyInit | undefined,
      accessKeyId: config.accessKeyId,
      secretAccessKey: config.secretAccessKey,
      ...(config.sessionToken ? { sessionToken: config.sessionToken } : {}),
      service: 's3',
      region: config.region,
    });
    const signed = await signer.sign();
    let response: Response;
    try {
      response = await fetchFn(signed.url.toString(), { method, headers: signed.headers, body: body as BodyInit | undefined });
    } catch (error) {
      throw networkError(what, error);
    }
    if (!response.ok) throw storeError(what, response.status, await response.text().catch(() => ''));
    return response;
  };
  const payloadHeaders = (sums: Checksums, contentType?: string): Record<string, string> => ({
    'content-md5': sums.md5Base64,
    'x-amz-content-sha256': sums.sha256Hex,
    ...(contentType ? { 'content-type': contentType } : {}),
  });

  const multipart: MultipartTarget = {
    async create(key, contentType) {
      const response = await send(`starting the upload of ${key}`, 'POST', key, 'uploads=', { 'content-type': contentType });
      const uploadId = xmlText(await response.text(), 'UploadId');
      if (!uploadId) throw new UploadError('transient', `starting the upload of ${key}: the store's answer has no UploadId`);
      return uploadId;
    },
    async uploadPart(key, uploadId, partNumber, body, sums) {
      const what = `part ${partNumber} of ${key}`;
      const response = await send(what, 'PUT', key, `partNumber=${partNumber}&uploadId=${encodeURIComponent(uploadId)}`, payloadHeaders(sums), body);
      confirmPut(what, response, sums);
      return sums.md5Hex;
    },
    async complete(key, uploadId, etags, wholeMd5Hex) {
      const what = `completing ${key}`;
      const xml = `<CompleteMultipartUpload>${etags.map((etag, i) => `<Part><PartNumber>${i + 1}</PartNumber><ETag>"${etag}"</ETag></Part>`).join('')}</CompleteMultipartUpload>`;
      const body = new TextEncoder().encode(xml);
      const sums = await checksumsOf(body);
      const response = await send(what, 'POST', key, `uploadId=${encodeURIComponent(uploadId)}`, payloadHeaders(sums, 'application/xml'), body);
      // S3 may answer 200 and still fail the completion in the body.
      const text = await response.text();
      if (xmlText(text, 'Code') !== null && text.includes('<Error>')) throw storeError(what, 500, text);
      // S3, MinIO and R2 give the MD5 of the parts' MD5s and their count; some stores the whole object's MD5.
      const etag = bareEtag(xmlText(text, 'ETag'));
      const expected = multipartEtag(etags);
      if (etag !== expected && etag !== wholeMd5Hex) throw new UploadError('transient', `${what}: the store's ETag ${etag ?? '(none)'} is not that of the parts sent (${expected})`);
    },
    async abort(key, uploadId) {
      await send(`abandoning the upload of ${key}`, 'DELETE', key, `uploadId=${encodeURIComponent(uploadId)}`, {});
    },
  };

  const put = async (object: ObjectPut): Promise<void> => {
    const response = await send(`writing ${object.key}`, 'PUT', object.key, '', payloadHeaders(object.sums, object.contentType), object.body);
    confirmPut(`writing ${object.key}`, response, object.sums);
  };

  return {
    multipart,
    put,
    async probe(key) {
      await put(await probeObject(key));
      await send(`deleting the test object ${key}`, 'DELETE', key, '', {});
    },
  };
}

/** The object's URL: `endpoint/bucket/key` (path style) or `bucket.endpoint/key`, each key part encoded. */
export function objectUrl(config: Pick<S3Config, 'endpoint' | 'bucket' | 'forcePathStyle'>, key: string, query = ''): string {
  const endpoint = new URL(config.endpoint);
  const path = key.split('/').map(encodeRfc3986).join('/');
  const base = config.forcePathStyle ? `${endpoint.origin}${trimSlash(endpoint.pathname)}/${config.bucket}` : `${endpoint.protocol}//${config.bucket}.${endpoint.host}${trimSlash(endpoint.pathname)}`;
  return `${base}/${path}${query ? `?${query}` : ''}`;
}

const trimSlash = (path: string) => path.replace(/\/+$/, '');
const encodeRfc3986 = (part: string) => encodeURIComponent(part).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

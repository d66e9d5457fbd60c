import { GetObjectCommand, ListObjectsV2Command, NoSuchKey, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { AwsClient } from 'aws4fetch';
import { ObjectTooLargeError, type FleetStore } from './fleet';

/**
 * The bucket through the AWS SDK, credentials and region from the standard chain (environment,
 * `~/.aws` profiles, SSO, instance roles). Another store (MinIO, R2, a local one) is named by
 * `AWS_ENDPOINT_URL_S3` or `AWS_ENDPOINT_URL`, addressed path-style unless it is on amazonaws.com.
 */
export function sdkFleetStore(env: NodeJS.ProcessEnv = process.env): FleetStore {
  // The SDK warns on every run under Node 20 that its releases of 2027 will want Node 22: the version
  // this command line is locked to runs on Node 20, and the warning would garble its one-line errors.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const endpoint = env.AWS_ENDPOINT_URL_S3 ?? env.AWS_ENDPOINT_URL;
  const forcePathStyle = endpoint !== undefined && !/(^|\.)amazonaws\.com$/i.test(new URL(endpoint).hostname);
  const client = new S3Client({
    ...(endpoint ? { endpoint, forcePathStyle } : {}),
    region: env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'us-east-1',
    // The chain's first link, read from `env` (the SDK would read process.env); without it the chain goes on.
    ...(env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY
      ? { credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY, ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}) } }
      : {}),
  });
  async function* listPages(bucket: string, prefix: string): AsyncIterable<string[]> {
    let token: string | undefined;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
      yield (page.Contents ?? []).flatMap((object) => (object.Key ? [object.Key] : []));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }
  return {
    async list(bucket, prefix) {
      const keys: string[] = [];
      for await (const page of listPages(bucket, prefix)) keys.push(...page);
      return keys;
    },
    listPages,
    async put(bucket, key, bytes, contentType) {
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: bytes, ContentType: contentType }));
    },
    async presign(bucket, key, seconds) {
      // The SDK's presigner is a package of its own; aws4fetch (already the extension's signer) signs
      // the query the same way (SigV4, X-Amz-Expires), with the credentials the SDK's chain resolved.
      const credentials = await client.config.credentials();
      const signer = new AwsClient({ ...credentials, service: 's3', region: await client.config.region() });
      const url = new URL(`${await objectUrl(bucket, key)}`);
      url.searchParams.set('X-Amz-Expires', String(seconds));
      return (await signer.sign(url.toString(), { method: 'GET', aws: { signQuery: true } })).url;
    },
    async get(bucket, key, maxBytes) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        if ((object.ContentLength ?? 0) > maxBytes) {
          (object.Body as { destroy?(): void } | undefined)?.destroy?.();
          throw new ObjectTooLargeError(`s3://${bucket}/${key} is ${object.ContentLength} bytes, more than the ${maxBytes} read`);
        }
        const bytes = await object.Body!.transformToByteArray();
        if (bytes.byteLength > maxBytes) throw new ObjectTooLargeError(`s3://${bucket}/${key} is more than the ${maxBytes} bytes read`);
        return bytes;
      } catch (error) {
        if (isNoSuchKey(error)) return null;
        throw error;
      }
    },
    async open(bucket, key) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        // Under Node the body is a Readable: iterating it reads chunk by chunk, and leaving the loop early destroys it.
        const body = object.Body as (AsyncIterable<Uint8Array> & { destroy(): void }) | undefined;
        if (!body) throw new Error(`s3://${bucket}/${key}: the store answered without a body`);
        return { length: object.ContentLength, chunks: body, cancel: () => body.destroy() };
      } catch (error) {
        if (isNoSuchKey(error)) return null;
        throw error;
      }
    },
  };

  /** The object's URL as the client addresses it: path style on another store, virtual host on AWS. */
  async function objectUrl(bucket: string, key: string): Promise<string> {
    const path = key.split('/').map(encodeURIComponent).join('/');
    if (endpoint) {
      const base = new URL(endpoint);
      if (forcePathStyle) return `${base.origin}${base.pathname.replace(/\/$/, '')}/${bucket}/${path}`;
      return `${base.protocol}//${bucket}.${base.host}/${path}`;
    }
    return `https://${bucket}.s3.${await client.config.region()}.amazonaws.com/${path}`;
  }
}

const isNoSuchKey = (error: unknown) => error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey';

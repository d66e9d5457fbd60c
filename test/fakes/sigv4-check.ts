import { AwsV4Signer } from 'aws4fetch';

export interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
}

/**
 * Whether a request is signed (SigV4, in its headers or its query as a presigned URL) with these
 * credentials: the request is signed again with the secret and the signatures compared. What a real
 * store does and s3rver does not (it accepts any SigV4 signature of a known key id).
 */
export async function signedRight(credentials: Credentials, url: URL, method: string, headers: Headers, body: Uint8Array): Promise<boolean> {
  const querySignature = url.searchParams.get('X-Amz-Signature');
  if (querySignature !== null) {
    // A presigned URL: only the host is signed (the recorder's presign service signs nothing else).
    const unsignedUrl = new URL(url);
    unsignedUrl.searchParams.delete('X-Amz-Signature');
    // X-Amz-Expires stays: it is signed, and a link may live other than the signer's default day.
    for (const name of ['X-Amz-Algorithm', 'X-Amz-Credential', 'X-Amz-Date', 'X-Amz-SignedHeaders']) unsignedUrl.searchParams.delete(name);
    const again = await new AwsV4Signer({
      method,
      url: unsignedUrl.toString(),
      accessKeyId: credentials.accessKeyId,
      secretAccessKey: credentials.secretAccessKey,
      service: 's3',
      region: credentials.region,
      signQuery: true,
      datetime: url.searchParams.get('X-Amz-Date') ?? '',
    }).sign();
    return again.url.searchParams.get('X-Amz-Signature') === querySignature;
  }
  const authorization = headers.get('authorization') ?? '';
  const datetime = headers.get('x-amz-date');
  if (!authorization.includes(`Credential=${credentials.accessKeyId}/`) || !datetime) return false;
  // Only the headers the client signed (a real client adds others on the way: content-length, user-agent…).
  const signedNames = /SignedHeaders=([^,\s]+)/.exec(authorization)?.[1]?.split(';') ?? [];
  const unsigned = new Headers();
  for (const name of signedNames) if (name !== 'host' && headers.has(name)) unsigned.set(name, headers.get(name)!);
  const again = await new AwsV4Signer({
    method,
    url: url.toString(),
    headers: unsigned,
    body: body as unknown as BodyInit,
    accessKeyId: credentials.accessKeyId,
    secretAccessKey: credentials.secretAccessKey,
    ...(headers.get('x-amz-security-token') ? { sessionToken: headers.get('x-amz-security-token')! } : {}),
    service: 's3',
    region: credentials.region,
    datetime,
  }).sign();
  return again.headers.get('authorization') === authorization;
}

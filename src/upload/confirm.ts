import { bareEtag, type Checksums } from './checksums';
import { UploadError } from './upload-error';

/**
 * Whether the store's answer to a PUT confirms the bytes it kept: its `x-amz-checksum-sha256` echo, or
 * an ETag equal to the MD5 (what S3 gives a plain PUT). An answer that confirms neither is not a delivery.
 */
export function confirmPut(what: string, response: Response, sums: Checksums): void {
  const echoed = response.headers.get('x-amz-checksum-sha256');
  if (echoed !== null) {
    if (echoed.trim() === sums.sha256Base64) return;
    throw new UploadError('transient', `${what}: the store kept other bytes (SHA-256 ${echoed.trim()}, sent ${sums.sha256Base64})`, response.status);
  }
  const etag = bareEtag(response.headers.get('etag'));
  if (etag === sums.md5Hex) return;
  throw new UploadError(
    'transient',
    etag === null
      ? `${what}: the store answered without a checksum or ETag to confirm the bytes (is the ETag header exposed by the bucket's CORS rule?)`
      : `${what}: the store's ETag ${etag} is not the MD5 of the bytes sent (${sums.md5Hex})`,
    response.status,
  );
}

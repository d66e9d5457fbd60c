import type { UploadProbeResult, UploadSettings } from '../../schemas/upload';
import { normalizePrefix } from '../bundle-format/bucket-layout';
import type { Clock } from '../shared/clock';
import { errorMessage } from '../shared/error-message';
import { activeTargetOf } from './active-target';
import type { Fetch } from './ports';
import { UploadError } from './upload-error';

/**
 * "Test connection": writes a small object under `<prefix>/probes/` and deletes it (a presign service
 * is asked for a `probe` URL), and says in plain words what failed: the network (DNS, TLS, a refused
 * connection), the signature (the secret), the key id, the bucket, or the permissions.
 */
export async function probeUpload(upload: UploadSettings, fetchFn: Fetch, clock: Clock): Promise<UploadProbeResult> {
  const active = await activeTargetOf(upload, fetchFn).catch((error: unknown) => {
    throw new UploadError('config', errorMessage(error));
  });
  if (!active) return { ok: false, message: 'Delivery is off: choose s3 or presigned first.' };
  const prefix = upload.mode === 's3' ? normalizePrefix(upload.s3.prefix) : '';
  const key = `${prefix ? `${prefix}/` : ''}probes/afr-probe-${clock.now()}.txt`;
  const where = upload.mode === 's3' ? `bucket ${upload.s3.bucket} at ${upload.s3.endpoint}` : `the presign service ${upload.presigned.endpoint}`;
  try {
    await active.target.probe(key);
    return { ok: true, message: upload.mode === 's3' ? `Wrote and deleted ${key} in ${where}.` : `Wrote ${key} through ${where}.` };
  } catch (error) {
    return { ok: false, message: explainProbeError(error, upload, where) };
  }
}

function explainProbeError(error: unknown, upload: UploadSettings, where: string): string {
  const said = errorMessage(error);
  if (!(error instanceof UploadError)) return `Failed: ${said}`;
  switch (error.code) {
    case 'SignatureDoesNotMatch':
      return `The store refused the signature: the secret access key does not belong to ${upload.s3.accessKeyId || 'the access key id'}. (${said})`;
    case 'InvalidAccessKeyId':
      return `The store does not know the access key id ${upload.s3.accessKeyId}. (${said})`;
    case 'NoSuchBucket':
      return `There is no bucket ${upload.s3.bucket} at ${upload.s3.endpoint}. (${said})`;
    case 'AccessDenied':
      return `The keys may not write to ${where} (check the bucket policy or the key's permissions). (${said})`;
    case 'ExpiredToken':
    case 'InvalidToken':
      return `The session token has expired or is not valid. (${said})`;
    case 'RequestTimeTooSkewed':
      return `This machine's clock is too far from the store's. (${said})`;
  }
  if (error.status === null) return `Could not reach ${where}: the name did not resolve, TLS failed, the connection was refused or the network is down. (${said})`;
  return `Failed: ${said}`;
}

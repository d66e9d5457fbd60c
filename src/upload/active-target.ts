import type { UploadSettings } from '../../schemas/upload';
import { checksumsOf } from './checksums';
import type { ActiveTarget } from './delivery';
import type { Fetch } from './ports';
import { presignedTarget } from './presigned-target';
import { s3Target } from './s3-target';

/**
 * The target the upload settings name, and their key: a digest (never the secret itself, which would
 * land in the outbox beside a failed entry) that changes whenever any of them does.
 */
export async function activeTargetOf(upload: UploadSettings, fetchFn: Fetch): Promise<ActiveTarget | null> {
  if (upload.mode === 'off') return null;
  const named = upload.mode === 's3' ? { mode: upload.mode, ...upload.s3 } : { mode: upload.mode, ...upload.presigned };
  const settingsKey = (await checksumsOf(new TextEncoder().encode(JSON.stringify(named)))).sha256Hex;
  if (upload.mode === 'presigned') return { target: presignedTarget(upload.presigned.endpoint, fetchFn), settingsKey };
  const { endpoint, bucket, region, forcePathStyle, accessKeyId, secretAccessKey, sessionToken } = upload.s3;
  const pathStyle = forcePathStyle ?? !/(^|\.)amazonaws\.com$/i.test(new URL(endpoint).hostname);
  return { target: s3Target({ endpoint, bucket, region, forcePathStyle: pathStyle, accessKeyId, secretAccessKey, sessionToken: sessionToken || undefined }, fetchFn), settingsKey };
}

import JSZip from 'jszip';
import { ManifestSchema } from '../../schemas/manifest';
import type { UploadIndexRecord } from '../../schemas/upload';
import { MANIFEST_FILE, NETWORK_HAR_FILE, STEPS_FILE } from '../bundle-format/file-names';
import { networkCounts } from './network-counts';

/** What the index object says of the browser and extension that wrote the bundle. */
export interface Origin {
  extensionVersion: string;
  browserVersion: string;
}

/**
 * The index object of a stored bundle: the facts a fleet queries (who failed, why, where, when), read
 * from its own `manifest.json` (and the counts of its requests, failed ones and `app_error`s, from
 * `network.har` and `steps.json`). The URL loses its query string and fragment (the bundle's URL is
 * redacted already; a flat index is read by more people and tools than the bundle).
 */
export async function indexRecordOf(bundleId: string, zip: Uint8Array, sha256Hex: string, zipKey: string, origin: Origin): Promise<UploadIndexRecord> {
  const archive = await JSZip.loadAsync(zip);
  const file = archive.file(MANIFEST_FILE);
  if (!file) throw new Error(`bundle ${bundleId} has no ${MANIFEST_FILE}`);
  const manifest = ManifestSchema.parse(JSON.parse(await file.async('string')));
  const json = async (name: string): Promise<unknown> => {
    const entry = archive.file(name);
    if (!entry) return null;
    try {
      return JSON.parse(await entry.async('string')) as unknown;
    } catch {
      return null;
    }
  };
  return {
    index_version: 1,
    bundle_id: bundleId,
    run_id: manifest.run_id,
    agent: manifest.run.agent,
    agent_version: manifest.run.agent_version,
    status: manifest.status,
    reason: manifest.failure_reason,
    label: manifest.failure_label,
    url: withoutQuery(manifest.url_at_failure),
    started_at: manifest.started_at,
    ended_at: manifest.ended_at,
    frame_count: manifest.frame_count,
    size_bytes: zip.byteLength,
    sha256: sha256Hex,
    zip_key: zipKey,
    extension_version: origin.extensionVersion,
    browser_version: origin.browserVersion,
    ...(manifest.fingerprint && manifest.signature ? { fingerprint: manifest.fingerprint, signature: manifest.signature } : {}),
    ...networkCounts(await json(NETWORK_HAR_FILE), await json(STEPS_FILE)),
  };
}

export function withoutQuery(url: string | null): string | null {
  if (url === null) return null;
  const cut = url.search(/[?#]/);
  return cut < 0 ? url : url.slice(0, cut);
}

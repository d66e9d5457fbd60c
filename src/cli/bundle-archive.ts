import JSZip from 'jszip';
import { errorMessage } from '../shared/error-message';

/** A bundle zip, unpacked in memory: file name → bytes, in archive order (folders left out). */
export interface BundleArchive {
  files: Map<string, Uint8Array>;
  /** Size of the zip itself. */
  zipBytes: number;
}

/** The bytes are not a zip archive (or one JSZip cannot read). */
export class NotAZipError extends Error {
  override readonly name = 'NotAZipError';
}

/** Unzips a bundle. Throws `NotAZipError` when the bytes are not a readable zip. */
export async function openBundleArchive(zip: Uint8Array): Promise<BundleArchive> {
  let archive: JSZip;
  try {
    archive = await JSZip.loadAsync(zip);
  } catch (error) {
    // JSZip appends a link to its FAQ ("If it is, see https://…"): noise on a terminal.
    const reason = errorMessage(error).split(' If it is, see')[0]?.trim();
    throw new NotAZipError(`not a zip archive (${reason})`);
  }
  const files = new Map<string, Uint8Array>();
  for (const entry of Object.values(archive.files)) {
    if (!entry.dir) files.set(entry.name, await entry.async('uint8array'));
  }
  return { files, zipBytes: zip.byteLength };
}

export type JsonRead = { ok: true; value: unknown } | { ok: false; error: string };

/** Parses one JSON file of the archive; says why when it is missing or not JSON. */
export function readJsonFile(archive: BundleArchive, name: string): JsonRead {
  const bytes = archive.files.get(name);
  if (!bytes) return { ok: false, error: 'missing from the bundle' };
  try {
    return { ok: true, value: JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)) as unknown };
  } catch (error) {
    return { ok: false, error: `not valid JSON (${errorMessage(error)})` };
  }
}

/** `1536` → `1.5 KiB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

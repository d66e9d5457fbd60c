import type { BundleData } from '../bundle-format/bundle-data';
import { BundleZipError, NotAZipError, openBundleZip } from '../bundle-format/open-zip';
import { InvalidBundleError, parseBundleData, parseJsonFile } from '../bundle-format/parse-files';
import { StepSnapshotFileSchema } from '../../schemas/timeline';
import type { BundleMedia } from './bundle-media';
import { cachedStepPages } from './step-pages';

export interface LoadedBundle {
  data: BundleData;
  media: BundleMedia;
  /** Revokes the object URLs of the frames and the clip. */
  release(): void;
}

export interface ObjectUrls {
  create(blob: Blob): string;
  revoke(url: string): void;
}

const browserUrls: ObjectUrls = { create: (blob) => URL.createObjectURL(blob), revoke: (url) => URL.revokeObjectURL(url) };

/** Opens the zip within the readers' bounds; what cannot be opened becomes an `InvalidBundleError` the page shows. */
async function openZip(bytes: Uint8Array | ArrayBuffer | Blob) {
  try {
    return await openBundleZip(bytes);
  } catch (error) {
    if (error instanceof NotAZipError) throw new InvalidBundleError(`Not a zip file: ${error.reason}`);
    if (error instanceof BundleZipError) throw new InvalidBundleError(`Not a valid Agent Flight Recorder bundle:\n- ${error.message}`);
    throw error;
  }
}

/**
 * Opens a bundle zip: validates its JSON files against the schemas and turns the frames and the clip
 * into object URLs; a step's page (`snapshots/`) is read and checked against its schema when shown. Throws `InvalidBundleError` when the data is not a bundle.
 */
export async function loadBundleZip(bytes: Uint8Array | ArrayBuffer | Blob, urls: ObjectUrls = browserUrls): Promise<LoadedBundle> {
  const archive = await openZip(bytes);
  const data = parseBundleData(archive);

  const created: string[] = [];
  const objectUrl = (name: string, type: string): string | null => {
    const file = archive.files.get(name);
    if (!file) return null;
    const url = urls.create(new Blob([file], { type }));
    created.push(url);
    return url;
  };
  const frameUrls = new Map<string, string | null>();
  for (const frame of data.manifest.frames) frameUrls.set(frame.name, objectUrl(frame.name, 'image/jpeg'));
  const clipUrl = data.manifest.clip ? objectUrl(data.manifest.clip.name, 'video/mp4') : null;

  return {
    data,
    media: {
      frameUrl: (name) => frameUrls.get(name) ?? null,
      clipUrl,
      stepPage: cachedStepPages((path) => {
        const read = parseJsonFile(archive, path, StepSnapshotFileSchema);
        return read.ok ? { ok: true, file: read.value } : { ok: false, error: `${path}: ${read.error}` };
      }),
    },
    release: () => created.forEach((url) => urls.revoke(url)),
  };
}

import JSZip from 'jszip';
import type { BundleData, BundleMedia } from './bundle-data';
import { BUNDLE_JSON_FILES, InvalidBundleError, parseBundleFiles } from './parse-bundle';
import { errorMessage } from '../shared/error-message';

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

/**
 * Opens a bundle zip: validates its JSON files against the schemas and turns the frames and the clip
 * into object URLs. Throws `InvalidBundleError` when the data is not a bundle.
 */
export async function loadBundleZip(bytes: Uint8Array | ArrayBuffer | Blob, urls: ObjectUrls = browserUrls): Promise<LoadedBundle> {
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(bytes);
  } catch (error) {
    throw new InvalidBundleError(`Not a zip file: ${errorMessage(error)}`);
  }
  const texts: Record<string, string | undefined> = {};
  for (const name of BUNDLE_JSON_FILES) texts[name] = await zip.file(name)?.async('string');
  const data = parseBundleFiles(texts);

  const created: string[] = [];
  const objectUrl = async (name: string, type: string): Promise<string | null> => {
    const file = zip.file(name);
    if (!file) return null;
    const url = urls.create(new Blob([await file.async('arraybuffer')], { type }));
    created.push(url);
    return url;
  };
  const frameUrls = new Map<string, string | null>();
  for (const frame of data.manifest.frames) frameUrls.set(frame.name, await objectUrl(frame.name, 'image/jpeg'));
  const clipUrl = data.manifest.clip ? await objectUrl(data.manifest.clip.name, 'video/mp4') : null;

  return {
    data,
    media: { frameUrl: (name) => frameUrls.get(name) ?? null, clipUrl },
    release: () => created.forEach((url) => urls.revoke(url)),
  };
}

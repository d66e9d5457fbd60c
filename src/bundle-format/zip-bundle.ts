import JSZip from 'jszip';
import { CLIP_FILE, isFrameFileName } from './file-names';

/** Whether a bundle file is stored as it is in the zip: JPEG frames and the MP4 clip are compressed already. */
export const isStoredUncompressed = (name: string): boolean => name === CLIP_FILE || isFrameFileName(name);

/**
 * Zips bundle files in the order given (the manifest first, as the writer lays it out), each dated
 * `date`: frames and the clip stored, the text files deflated.
 * @example await zipBundleFiles(new Map([['manifest.json', '{…}'], ['frames/frame_0001.jpeg', jpeg]]), new Date(manifest.ended_at))
 */
export function zipBundleFiles(files: ReadonlyMap<string, Uint8Array | string>, date: Date): Promise<Uint8Array> {
  const zip = new JSZip();
  for (const [name, data] of files) zip.file(name, data, { compression: isStoredUncompressed(name) ? 'STORE' : 'DEFLATE', date });
  return zip.generateAsync({ type: 'uint8array' });
}

import JSZip from 'jszip';
import { errorMessage } from '../shared/error-message';

/**
 * How much a zip may hold before it is refused unread. Bundles come from other machines and from the
 * user's disk, so every reader treats a zip as hostile: a few kilobytes of DEFLATE can claim or inflate
 * to gigabytes, and a central directory can list millions of entries.
 */
export interface ZipLimits {
  /** Entries in the archive, folders included. */
  maxEntries: number;
  /** Uncompressed bytes of one file, declared or inflated. */
  maxEntryBytes: number;
  /** Uncompressed bytes of all files together, declared or inflated. */
  maxTotalBytes: number;
  /** `/`-separated parts of an entry's path as stored (`frames/frame_0001.jpeg` has 2). */
  maxPathDepth: number;
  /**
   * Most a file declaring over `ratioFromBytes` may inflate to, per byte it takes in the zip. Honest
   * bundles store frames and the clip as they are and deflate JSON to a tenth or so; a small zip that
   * declares (honestly) huge files is a bomb, and reading it would take gigabytes of memory.
   */
  maxCompressionRatio: number;
  /** Files declaring at most this many bytes are not held to `maxCompressionRatio` (a tiny file of one repeated byte is fine). */
  ratioFromBytes: number;
}

const GiB = 1024 * 1024 * 1024;

/**
 * Room for the largest bundle the recorder can write: 30 frames a second for a 300 s buffer and 30 s after
 * the failure are 9 900 frames; the settings allow a 2 GiB frame buffer, and the clip re-encodes the same
 * frames. A bundle's deepest file is `frames/<name>`; two more levels leave room for a folder an archiver
 * adds around it.
 */
export const DEFAULT_ZIP_LIMITS: ZipLimits = {
  maxEntries: 20_000,
  maxEntryBytes: GiB,
  maxTotalBytes: 4 * GiB,
  maxPathDepth: 4,
  maxCompressionRatio: 200,
  ratioFromBytes: 1024 * 1024,
};

/** A bundle zip, unpacked in memory: file name → bytes, in archive order (folders left out). */
export interface BundleArchive {
  files: Map<string, Uint8Array<ArrayBuffer>>;
  /** Size of the zip itself. */
  zipBytes: number;
}

/** The bytes cannot be opened as a bundle zip; `message` says why in words a terminal or a page can show. */
export class BundleZipError extends Error {}

/** The bytes are not a zip archive (or one JSZip cannot read). */
export class NotAZipError extends BundleZipError {
  override readonly name = 'NotAZipError';
  /** JSZip's own message, unabridged. */
  readonly reason: string;
  constructor(reason: string) {
    // JSZip appends a link to its FAQ ("If it is, see https://…"): noise in a one-line message.
    super(`not a zip archive (${reason.split(' If it is, see')[0]?.trim()})`);
    this.reason = reason;
  }
}

/** The zip is past one of its `ZipLimits`: refused before (or while) inflating it. */
export class ZipLimitError extends BundleZipError {
  override readonly name = 'ZipLimitError';
}

/** JSZip's streaming reader and the sizes from the central directory: at runtime on every loaded entry, absent from its typings. */
interface LoadedEntry {
  _data?: { uncompressedSize?: number; compressedSize?: number };
  internalStream(type: 'uint8array'): JSZip.JSZipStreamHelper<Uint8Array>;
}

/**
 * The entry count the end-of-central-directory record declares, or null when there is none. Read before
 * JSZip so that a directory of millions of entries is refused before JSZip builds an object for each.
 * 0xffff means "see the zip64 record": at least that many.
 */
function declaredEntryCount(zip: Uint8Array): number | null {
  // The record is 22 bytes plus a comment of at most 0xffff bytes, at the very end.
  for (let at = zip.byteLength - 22; at >= 0 && at >= zip.byteLength - 22 - 0xffff; at--) {
    if (zip[at] === 0x50 && zip[at + 1] === 0x4b && zip[at + 2] === 0x05 && zip[at + 3] === 0x06) return zip[at + 10]! | (zip[at + 11]! << 8);
  }
  return null;
}

const pathDepth = (name: string): number => name.split('/').filter((part) => part !== '').length;

/** Inflates one entry, counting bytes as they come: stops as soon as `bound` is passed, whatever the header said. */
function inflateBounded(entry: JSZip.JSZipObject, bound: number, tooBig: () => ZipLimitError): Promise<Uint8Array<ArrayBuffer>> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    let done = false;
    const stream = (entry as unknown as LoadedEntry).internalStream('uint8array');
    stream
      .on('data', (chunk) => {
        if (done) return;
        size += chunk.byteLength;
        if (size > bound) {
          done = true;
          stream.pause();
          reject(tooBig());
          return;
        }
        chunks.push(chunk);
      })
      .on('error', (error) => {
        if (!done) reject(new NotAZipError(`${entry.name}: ${errorMessage(error)}`));
        done = true;
      })
      .on('end', () => {
        if (done) return;
        done = true;
        const bytes = new Uint8Array(size);
        let offset = 0;
        for (const chunk of chunks) {
          bytes.set(chunk, offset);
          offset += chunk.byteLength;
        }
        resolve(bytes);
      })
      .resume();
  });
}

/**
 * Unzips a bundle within `limits`: the entry count, each path's depth and each file's declared size are
 * checked before anything is inflated, and the actual sizes while inflating. Throws `NotAZipError` when
 * the bytes are not a readable zip, `ZipLimitError` when the zip is past a limit.
 * @example const { files } = await openBundleZip(bytes); files.get('manifest.json')
 */
export async function openBundleZip(input: Uint8Array | ArrayBuffer | Blob, limits: ZipLimits = DEFAULT_ZIP_LIMITS): Promise<BundleArchive> {
  const zip = input instanceof Uint8Array ? input : new Uint8Array(input instanceof ArrayBuffer ? input : await input.arrayBuffer());
  const tooMany = (count: number) => new ZipLimitError(`${count} entries, more than the ${limits.maxEntries} a bundle may have`);
  const declared = declaredEntryCount(zip);
  if (declared !== null && declared > limits.maxEntries) throw tooMany(declared);

  let archive: JSZip;
  try {
    archive = await JSZip.loadAsync(zip);
  } catch (error) {
    throw new NotAZipError(errorMessage(error));
  }
  // The declared count may lie: JSZip reads the directory up to its last record.
  const entries = Object.values(archive.files);
  if (entries.length > limits.maxEntries) throw tooMany(entries.length);

  let total = 0;
  for (const entry of entries) {
    const name = entry.unsafeOriginalName ?? entry.name;
    if (pathDepth(name) > limits.maxPathDepth) {
      throw new ZipLimitError(`${name.slice(0, 200)}: nested ${pathDepth(name)} levels deep, more than the ${limits.maxPathDepth} a bundle may have`);
    }
    if (entry.dir) continue;
    const { uncompressedSize: size = 0, compressedSize = 0 } = (entry as unknown as LoadedEntry)._data ?? {};
    // JSZip reads a 32-bit size of 2 GiB or more as a negative number.
    if (size < 0) throw new ZipLimitError(`${entry.name}: declares 2 GiB or more uncompressed, more than the ${limits.maxEntryBytes} a bundle file may have`);
    if (size > limits.maxEntryBytes) throw new ZipLimitError(`${entry.name}: declares ${size} bytes uncompressed, more than the ${limits.maxEntryBytes} a bundle file may have`);
    if (size > limits.ratioFromBytes && size > Math.max(compressedSize, 0) * limits.maxCompressionRatio) {
      throw new ZipLimitError(`${entry.name}: declares ${size} bytes from ${compressedSize} compressed, more than ${limits.maxCompressionRatio} to 1 (a zip bomb)`);
    }
    total += size;
    if (total > limits.maxTotalBytes) throw new ZipLimitError(`declares more than ${limits.maxTotalBytes} bytes uncompressed in all, the most a bundle may have`);
  }

  const files = new Map<string, Uint8Array<ArrayBuffer>>();
  let inflated = 0;
  for (const entry of entries) {
    if (entry.dir) continue;
    const declaredSize = (entry as unknown as LoadedEntry)._data?.uncompressedSize ?? 0;
    const left = limits.maxTotalBytes - inflated;
    const bound = Math.min(declaredSize, limits.maxEntryBytes, left);
    const bytes = await inflateBounded(entry, bound, () =>
      bound === declaredSize
        ? new ZipLimitError(`${entry.name}: inflates past the ${declaredSize} bytes its header declares`)
        : new ZipLimitError(`${entry.name}: inflates past ${bound} bytes, more than a bundle may hold`),
    );
    inflated += bytes.byteLength;
    files.set(entry.name, bytes);
  }
  return { files, zipBytes: zip.byteLength };
}

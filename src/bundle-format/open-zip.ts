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

/**
 * Inflates one entry, handing each chunk to `onChunk` as it comes and counting bytes: stops as soon as
 * `bound` is passed, whatever the header said. Resolves with the number of bytes inflated.
 */
function inflateBounded(entry: JSZip.JSZipObject, bound: number, tooBig: () => ZipLimitError, onChunk: (chunk: Uint8Array) => void): Promise<number> {
  return new Promise((resolve, reject) => {
    let size = 0;
    let done = false;
    const fail = (error: unknown) => {
      if (done) return;
      done = true;
      stream.pause();
      reject(error instanceof BundleZipError ? error : new NotAZipError(`${entry.name}: ${errorMessage(error)}`));
    };
    const stream = (entry as unknown as LoadedEntry).internalStream('uint8array');
    stream
      .on('data', (chunk) => {
        if (done) return;
        size += chunk.byteLength;
        if (size > bound) return fail(tooBig());
        try {
          onChunk(chunk);
        } catch (error) {
          fail(error);
        }
      })
      .on('error', fail)
      .on('end', () => {
        if (done) return;
        done = true;
        resolve(size);
      })
      .resume();
  });
}

function concat(chunks: readonly Uint8Array[], size: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * A bundle zip whose central directory has been read and checked, nothing inflated yet: each file is
 * inflated when it is asked for, so reading the manifest of a 200 MB bundle does not inflate its frames.
 */
export interface LazyBundleArchive {
  /** File names in archive order (folders left out). */
  names: readonly string[];
  /** Size of the zip itself. */
  zipBytes: number;
  has(name: string): boolean;
  /** Uncompressed size the central directory declares (within the limits); undefined for a name not in the zip. */
  declaredBytes(name: string): number | undefined;
  /** Inflates one file within its declared size; undefined for a name not in the zip. Throws `BundleZipError`. */
  read(name: string): Promise<Uint8Array<ArrayBuffer> | undefined>;
  /**
   * Inflates one file chunk by chunk without keeping it (an MP4's boxes can be walked this way without
   * holding its media); false for a name not in the zip. Throws `BundleZipError`, or what `onChunk` throws.
   */
  scan(name: string, onChunk: (chunk: Uint8Array) => void): Promise<boolean>;
}

/**
 * Reads a bundle zip's central directory within `limits`: the entry count, each path's depth, each
 * file's declared size, the total and the compression ratio are checked before anything is inflated;
 * each file's actual size is checked while it inflates, against what it declared. Throws `NotAZipError`
 * when the bytes are not a readable zip, `ZipLimitError` when the zip is past a limit.
 * @example const archive = await openLazyBundleZip(bytes); await archive.read('manifest.json')
 */
export async function openLazyBundleZip(input: Uint8Array | ArrayBuffer | Blob, limits: ZipLimits = DEFAULT_ZIP_LIMITS): Promise<LazyBundleArchive> {
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

  const files = new Map<string, { entry: JSZip.JSZipObject; size: number }>();
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
    files.set(entry.name, { entry, size });
  }

  // Each file stops inflating past the size it declared, and the declared sizes were checked against
  // the per-file and total limits above: whatever is read, and in any order, stays within them.
  const scan = async (name: string, onChunk: (chunk: Uint8Array) => void): Promise<boolean> => {
    const file = files.get(name);
    if (!file) return false;
    await inflateBounded(file.entry, file.size, () => new ZipLimitError(`${name}: inflates past the ${file.size} bytes its header declares`), onChunk);
    return true;
  };
  return {
    names: [...files.keys()],
    zipBytes: zip.byteLength,
    has: (name) => files.has(name),
    declaredBytes: (name) => files.get(name)?.size,
    scan,
    read: async (name) => {
      const chunks: Uint8Array[] = [];
      let size = 0;
      const found = await scan(name, (chunk) => {
        chunks.push(chunk);
        size += chunk.byteLength;
      });
      return found ? concat(chunks, size) : undefined;
    },
  };
}

/** Inflates the named files of a lazy archive (those it holds) into a `BundleArchive`, in the order given. */
export async function readBundleFiles(archive: LazyBundleArchive, names: readonly string[]): Promise<BundleArchive> {
  const files = new Map<string, Uint8Array<ArrayBuffer>>();
  for (const name of names) {
    const bytes = await archive.read(name);
    if (bytes) files.set(name, bytes);
  }
  return { files, zipBytes: archive.zipBytes };
}

/**
 * Unzips a whole bundle within `limits` (see `openLazyBundleZip`), for readers that need every file
 * (the viewer, `afr validate`, `afr redact`). Throws `NotAZipError` when the bytes are not a readable
 * zip, `ZipLimitError` when the zip is past a limit.
 * @example const { files } = await openBundleZip(bytes); files.get('manifest.json')
 */
export async function openBundleZip(input: Uint8Array | ArrayBuffer | Blob, limits: ZipLimits = DEFAULT_ZIP_LIMITS): Promise<BundleArchive> {
  const archive = await openLazyBundleZip(input, limits);
  return readBundleFiles(archive, archive.names);
}

import { constants } from 'node:fs';
import { open, readdir, realpath, stat, type FileHandle } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { BundleReadError } from '../reads/errors';
import { TimeoutError, withTimeout } from '../shared/timeout';
import { formatBytes } from './format-bytes';
import type { BundleEntry, BundleSource } from './bundle-source';
import { describeReadError } from './read-error';

/**
 * Where Chrome saves the recorder's bundles when nobody else decides (`autoDownload`): the user's
 * downloads folder, `agent-flight-recorder/` inside it (docs/drivers/where-bundles-go.md).
 */
export const DEFAULT_BUNDLE_DIR = path.join(os.homedir(), 'Downloads', 'agent-flight-recorder');

/** Most zips a folder listing looks at (newest first): a folder of thousands is summarised, not listed whole. */
const MAX_LISTED = 1000;

/** How much of the folder a read may take: the zip's size, checked before it is opened, and the time to read it. */
export interface FolderLimits {
  maxBytes: number;
  timeoutMs: number;
}

/** 1 GiB, as the viewer's `?bundle=` link: far above a bundle with default settings; a read on a stuck disk gives up after 30 s. */
export const DEFAULT_FOLDER_LIMITS: FolderLimits = { maxBytes: 1024 ** 3, timeoutMs: 30_000 };

/** What the folder serves, in the words of `list_bundles`' description and `afr mcp --help`. */
export const FOLDER_SERVES = `the .zip files directly in the bundles folder (regular files of at most ${formatBytes(DEFAULT_FOLDER_LIMITS.maxBytes)}; not its subfolders, links out of it, FIFOs or devices)`;

const outside = (root: string, file: string): boolean => {
  const relative = path.relative(root, file);
  return relative === '' || relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative);
};

/**
 * The zips directly in one folder, never its subfolders. A bundle is named by its file name with or
 * without `.zip`; a name that resolves anywhere else (`..`, a subfolder, an absolute path elsewhere, a
 * symbolic link out) is refused, so a model cannot make the server read other files. Only a regular
 * file is opened (a FIFO named `x.zip` would block the read forever, a device would never end), after
 * its size is checked, and the read gives up after `limits.timeoutMs`.
 */
export function folderSource(dir: string, limits: FolderLimits = DEFAULT_FOLDER_LIMITS): BundleSource {
  const root = path.resolve(dir);
  const realRoot = () => realpath(root).catch(() => null);

  const resolve = async (bundle: string): Promise<string> => {
    const base = await realRoot();
    if (base === null) throw new BundleReadError(`the bundles folder ${root} does not exist`);
    const candidate = /^[\w.@() -]+$/.test(bundle) && !bundle.endsWith('.zip') ? path.join(root, `${bundle}.zip`) : path.resolve(root, bundle);
    // Refused as written before the file system is asked: whether a file exists elsewhere is not told.
    if (outside(root, candidate)) throw new BundleReadError(`outside the bundles folder ${root}: only its zips are read`);
    if (path.dirname(candidate) !== root) throw new BundleReadError(`in a subfolder of ${root}: only the zips directly in it are read`);
    const real = await realpath(candidate).catch((error: unknown) => {
      throw new BundleReadError(`${describeReadError(candidate, error).slice(candidate.length + 2)} (list_bundles lists the bundles)`);
    });
    if (outside(base, real) || path.dirname(real) !== base) {
      throw new BundleReadError(`outside the bundles folder ${root} (a link out of it): only the zips directly in it are read`);
    }
    if (!real.endsWith('.zip')) throw new BundleReadError('not a .zip: only the zips of the bundles folder are read');
    return real;
  };

  return {
    async list() {
      const base = await realRoot();
      if (base === null) return { bundles: [], notes: [`the bundles folder ${root} does not exist`] };
      const names = (await readdir(base, { withFileTypes: true })).filter((e) => e.isFile() && e.name.endsWith('.zip')).map((e) => e.name);
      const entries = await Promise.all(
        names.map(async (name): Promise<BundleEntry | null> => {
          const info = await stat(path.join(base, name)).catch(() => null);
          if (!info) return null;
          return { id: name.slice(0, -'.zip'.length), source: 'folder', created_at: info.mtime.toISOString(), bytes: info.size, reason: null, label: null };
        }),
      );
      const bundles = entries.filter((e): e is BundleEntry => e !== null).sort((a, b) => b.created_at.localeCompare(a.created_at));
      const notes = bundles.length > MAX_LISTED ? [`${bundles.length - MAX_LISTED} older zips in ${root} are not listed`] : [];
      return { bundles: bundles.slice(0, MAX_LISTED), notes };
    },
    async read(bundle) {
      const file = await resolve(bundle);
      let handle: FileHandle | null = null;
      try {
        return await withTimeout(
          (async () => {
            // Asked of the path before opening it: opening a FIFO blocks until a writer comes.
            const info = await stat(file);
            checkFile(info, limits.maxBytes);
            // O_NONBLOCK: should the file be swapped for a FIFO after the check, open still returns.
            handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
            const opened = await handle.stat();
            if (opened.dev !== info.dev || opened.ino !== info.ino) throw new BundleReadError('changed while it was opened; not read');
            checkFile(opened, limits.maxBytes);
            return await readAll(handle, opened.size);
          })(),
          limits.timeoutMs,
          'reading the zip',
          () => void (handle as FileHandle | null)?.close().catch(() => undefined),
        );
      } catch (error) {
        if (error instanceof BundleReadError) throw error;
        if (error instanceof TimeoutError) throw new BundleReadError(`${error.message}; not read`);
        throw new BundleReadError(describeReadError(file, error).slice(file.length + 2));
      } finally {
        await (handle as FileHandle | null)?.close().catch(() => undefined);
      }
    },
  };
}

/** A regular file within `maxBytes`, else a one-line refusal (nothing has been read). */
function checkFile(info: { isFile(): boolean; size: number }, maxBytes: number): void {
  if (!info.isFile()) throw new BundleReadError('not a regular file (a FIFO, device or folder is never read)');
  if (info.size > maxBytes) throw new BundleReadError(`${formatBytes(info.size)}, more than the ${formatBytes(maxBytes)} a bundle is read up to; not read`);
}

/** The file's first `size` bytes (what its size said when opened; a file still growing is not read past that). */
async function readAll(handle: FileHandle, size: number): Promise<Uint8Array> {
  const bytes = new Uint8Array(size);
  let at = 0;
  while (at < size) {
    const { bytesRead } = await handle.read(bytes, at, size - at, at);
    if (bytesRead === 0) break;
    at += bytesRead;
  }
  return at === size ? bytes : bytes.subarray(0, at);
}

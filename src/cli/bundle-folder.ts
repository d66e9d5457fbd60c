import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { BundleReadError } from '../reads/errors';
import type { BundleEntry, BundleSource } from './bundle-source';
import { describeReadError } from './read-error';

/**
 * Where Chrome saves the recorder's bundles when nobody else decides (`autoDownload`): the user's
 * downloads folder, `agent-flight-recorder/` inside it (docs/drivers/where-bundles-go.md).
 */
export const DEFAULT_BUNDLE_DIR = path.join(os.homedir(), 'Downloads', 'agent-flight-recorder');

/** Most zips a folder listing looks at (newest first): a folder of thousands is summarised, not listed whole. */
const MAX_LISTED = 1000;

const outside = (root: string, file: string): boolean => {
  const relative = path.relative(root, file);
  return relative === '' || relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative);
};

/**
 * The zips of one folder (not its subfolders). A bundle is named by its file name without `.zip`, or
 * by a path to a zip inside the folder; a path that resolves outside it (`..`, an absolute path
 * elsewhere, a symbolic link out) is refused, so a model cannot make the server read other files.
 */
export function folderSource(dir: string): BundleSource {
  const root = path.resolve(dir);
  const realRoot = () => realpath(root).catch(() => null);

  const resolve = async (bundle: string): Promise<string> => {
    const base = await realRoot();
    if (base === null) throw new BundleReadError(`the bundles folder ${root} does not exist`);
    const candidate = /^[\w.@() -]+$/.test(bundle) && !bundle.endsWith('.zip') ? path.join(root, `${bundle}.zip`) : path.resolve(root, bundle);
    // Refused as written before the file system is asked: whether a file exists elsewhere is not told.
    if (outside(root, candidate)) throw new BundleReadError(`outside the bundles folder ${root}: only its zips are read`);
    const real = await realpath(candidate).catch((error: unknown) => {
      throw new BundleReadError(`${describeReadError(candidate, error).slice(candidate.length + 2)} (list_bundles lists the bundles)`);
    });
    if (outside(base, real)) {
      throw new BundleReadError(`outside the bundles folder ${root}: only its zips are read`);
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
      try {
        const bytes = await readFile(file);
        return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      } catch (error) {
        throw new BundleReadError(describeReadError(file, error).slice(file.length + 2));
      }
    },
  };
}

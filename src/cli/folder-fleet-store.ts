import { createReadStream } from 'node:fs';
import { mkdir, opendir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ObjectTooLargeError, type FleetStore } from './fleet';

/** Keys per page of a folder listing, as S3 lists 1,000 at a time. */
const PAGE = 1000;

/**
 * A local copy of a bucket's prefix (`aws s3 sync s3://runs/ci ./ci`) read as the bucket: keys are
 * paths under `root` with `/` between parts, and the bucket name is not used. Only regular files are
 * keys (a link is not followed), so a listing never leaves `root`.
 */
export function folderFleetStore(root: string): FleetStore {
  const file = (key: string) => {
    const parts = key.split('/');
    if (parts.some((part) => part === '..' || part === '.' || part === '')) throw new Error(`"${key}" is not a key of this folder`);
    return path.join(root, ...parts);
  };
  async function* listPages(_bucket: string, prefix: string): AsyncIterable<string[]> {
    // A prefix ending in `/` is a folder; another is a folder and the start of names in it.
    const cut = prefix.lastIndexOf('/');
    const folder = prefix.slice(0, cut + 1);
    const start = prefix.slice(cut + 1);
    let page: string[] = [];
    async function* walk(dir: string, keyDir: string, first: boolean): AsyncIterable<string> {
      const handle = await opendir(dir).catch(() => null);
      if (!handle) return;
      for await (const entry of handle) {
        if (first && !entry.name.startsWith(start)) continue;
        if (entry.isDirectory()) yield* walk(path.join(dir, entry.name), `${keyDir}${entry.name}/`, false);
        else if (entry.isFile()) yield `${keyDir}${entry.name}`;
      }
    }
    for await (const key of walk(folder ? file(folder.slice(0, -1)) : root, folder, true)) {
      page.push(key);
      if (page.length === PAGE) {
        yield page;
        page = [];
      }
    }
    if (page.length) yield page;
  }
  return {
    listPages,
    async list(bucket, prefix) {
      const keys: string[] = [];
      for await (const page of listPages(bucket, prefix)) keys.push(...page);
      return keys.sort();
    },
    async get(_bucket, key, maxBytes) {
      const info = await stat(file(key)).catch(() => null);
      if (!info?.isFile()) return null;
      if (info.size > maxBytes) throw new ObjectTooLargeError(`${key} is ${info.size} bytes, more than the ${maxBytes} read`);
      return new Uint8Array(await readFile(file(key)));
    },
    async open(_bucket, key) {
      const info = await stat(file(key)).catch(() => null);
      if (!info?.isFile()) return null;
      const stream = createReadStream(file(key));
      return { length: info.size, chunks: stream, cancel: () => stream.destroy() };
    },
    async put(_bucket, key, bytes) {
      // Written beside, then renamed: a reader sees the old object or the new one, never half of one.
      const target = file(key);
      await mkdir(path.dirname(target), { recursive: true });
      const staged = `${target}.part-${process.pid}`;
      await writeFile(staged, bytes);
      await rename(staged, target);
    },
  };
}

/** Whether `dir` holds a bucket's layout (an `index/` folder) rather than bundle zips. */
export async function isIndexFolder(dir: string): Promise<boolean> {
  return (await stat(path.join(dir, 'index')).catch(() => null))?.isDirectory() === true;
}

import { randomBytes } from 'node:crypto';
import { link, open, readFile, rename, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';

/**
 * A file being downloaded, kept out of sight until it has been checked: written under a hidden
 * temporary name in its destination folder (the same file system, so keeping it is a link, not a copy),
 * then either given its name or removed. Nothing is left under the destination's name on a refusal.
 */
export interface StagedFile {
  write(chunk: Uint8Array): Promise<void>;
  /** What was written, read back whole (to validate it). */
  bytes(): Promise<Uint8Array>;
  /**
   * Gives the file its name `file`; rejects with code `EEXIST` when `file` exists (never replaced),
   * unless `replace`: then it takes the place of that file in one step (a reader sees the old file or
   * the new one, never part of it).
   */
  keepAs(file: string, replace?: boolean): Promise<void>;
  /** Removes the file; harmless when it is kept or gone already. */
  discard(): Promise<void>;
}

/** A `StagedFile` in `dir` (`.afr-pull-<random>.part`, readable by its owner only; `afr pull` and `afr har` write through it). */
export async function stageFile(dir: string): Promise<StagedFile> {
  const temp = path.join(dir, `.afr-pull-${randomBytes(6).toString('hex')}.part`);
  let handle: FileHandle | null = await open(temp, 'wx', 0o600);
  let kept = false;
  const close = async () => {
    const h = handle;
    handle = null;
    await h?.close();
  };
  return {
    async write(chunk) {
      if (!handle) throw new Error(`${temp} is closed`);
      for (let at = 0; at < chunk.byteLength; ) at += (await handle.write(chunk, at, chunk.byteLength - at)).bytesWritten;
    },
    async bytes() {
      await close();
      const bytes = await readFile(temp);
      return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },
    async keepAs(file, replace = false) {
      await close();
      if (replace) {
        await rename(temp, file);
        kept = true;
        return;
      }
      // link() fails with EEXIST rather than replace a file, where rename() would replace it.
      await link(temp, file);
      kept = true;
      await unlink(temp);
    },
    async discard() {
      await close().catch(() => undefined);
      if (!kept) await unlink(temp).catch(() => undefined);
    },
  };
}

import { realpathSync } from 'node:fs';
import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import process from 'node:process';
import type { CliIo } from './command';
import { commandName } from './command-name';
import { stageFile } from './staged-file';

/** Whether two paths name the same existing file: the same device and inode, however each is spelled (links included). */
async function sameFile(a: string, b: string): Promise<boolean> {
  const [sa, sb] = await Promise.all([stat(a).catch(() => null), stat(b).catch(() => null)]);
  return sa !== null && sb !== null && sa.dev === sb.dev && sa.ino === sb.ino;
}

/**
 * The file system, the clock and the terminal, as both command lines use them: the checkout's
 * (`node-io.ts`) and the packaged one (`packaged.ts`), which differ only in where the JSON Schemas and
 * the viewer come from.
 */
export const nodeFiles: Pick<CliIo, 'readFile' | 'writeFile' | 'sameFile' | 'now' | 'stdout' | 'stderr' | 'stderrIsTerminal' | 'commandName' | 'stageFile' | 'env' | 'launchReproBrowser'> = {
  // A view of the Buffer, not a copy: a bundle of hundreds of megabytes is held once.
  readFile: async (file) => {
    const bytes = await readFile(file);
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  },
  // `wx`: the file is created, never replaced, unless asked (EEXIST otherwise).
  writeFile: (file, bytes, overwrite) => writeFile(file, bytes, { flag: overwrite ? 'w' : 'wx' }),
  sameFile,
  stageFile,
  now: () => new Date(),
  env: () => process.env,
  // Loaded on use: only `afr repro --run` starts a browser.
  launchReproBrowser: async (options) => (await import('./repro-browser')).launchReproBrowser(options),
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  stderrIsTerminal: () => process.stderr.isTTY === true,
  commandName: () =>
    commandName({
      script: process.argv[1],
      pathDirs: (process.env.PATH ?? '').split(path.delimiter),
      realpath: (file) => {
        try {
          return realpathSync(file);
        } catch {
          return null;
        }
      },
    }),
};

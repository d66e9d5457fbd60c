import { readFile } from 'node:fs/promises';
import { loadBundleJsonSchemas } from './bundle-json-schemas';
import type { CliIo } from './main';

/** The command line's real surroundings: the file system, `schemas/json/`, stdout and stderr. */
export const nodeIo: CliIo = {
  readFile: async (file) => new Uint8Array(await readFile(file)),
  loadSchemas: () => loadBundleJsonSchemas(),
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
};

import path from 'node:path';
import { NETWORK_HAR_FILE } from '../bundle-format/file-names';
import { BundleReadError } from '../reads/errors';
import { errorMessage } from '../shared/error-message';
import { EXIT_OK, EXIT_USAGE, type CliIo } from './command';
import { readCommand } from './read-command';

/**
 * Writes `bytes` to `file`: staged (a hidden file in the same folder, given its name once whole) where
 * the command line can stage, so an interrupted write leaves no half HAR under the name; directly
 * otherwise. Rejects with code `EEXIST` when `file` exists and `replace` is false.
 */
async function writeWhole(io: CliIo, file: string, bytes: Uint8Array, replace: boolean): Promise<void> {
  if (!io.stageFile) return io.writeFile(file, bytes, replace);
  const staged = await io.stageFile(path.dirname(file));
  try {
    await staged.write(bytes);
    await staged.keepAs(file, replace);
  } finally {
    await staged.discard();
  }
}

export const harCommand = readCommand(
  'har',
  `  afr har <bundle.zip> [--out file.har] [--force] [--json]
      writes the bundle's ${NETWORK_HAR_FILE} (masked by the recorder) to --out (default <bundle id>.har
      in the current folder), for Chrome DevTools' Network panel (import HAR) or Playwright's
      routeFromHAR; an existing file is replaced only with --force`,
  async ({ args, reader, io, print }) => {
    // Read through the readers' schema first: what is written is a HAR the readers can read.
    if (!(await reader.har())) throw new BundleReadError(`the bundle has no ${NETWORK_HAR_FILE} (written before the network log, or of no tab)`, 'argument');
    const bytes = (await reader.archive.read(NETWORK_HAR_FILE))!;
    const out = args.out ?? `${reader.manifest.bundle_id.replace(/[^\w.-]/g, '_')}.har`;
    if (await io.sameFile(out, args.file)) {
      print.err([`afr: ${out}: that is the bundle itself; not replaced`]);
      return EXIT_USAGE;
    }
    try {
      await writeWhole(io, out, bytes, args.force === true);
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      print.err([`afr: ${out}: ${code === 'EEXIST' ? 'exists (--force replaces it)' : `cannot write (${errorMessage(error)})`}`]);
      return EXIT_USAGE;
    }
    const entries = (await reader.har())!.log.entries.length;
    if (args.json) print.json({ file: out, bytes: bytes.byteLength, requests: entries });
    else print.out([`${NETWORK_HAR_FILE}: ${entries} request${entries === 1 ? '' : 's'}, ${bytes.byteLength} bytes, written to ${out}`]);
    return EXIT_OK;
  },
);

import { BundleZipError } from '../bundle-format/open-zip';
import { parseCheckArgs, readBundleFile } from './check-options';
import { EXIT_INVALID, EXIT_OK, type Command } from './command';
import { inspectionLines } from './format-inspection';
import { DEFAULT_INSPECT_OPTIONS, inspectBundle } from './inspect-bundle';

/** `afr inspect <bundle.zip> [--steps N] [--json]` */
export interface InspectArgs {
  name: 'inspect';
  file: string;
  json: boolean;
  steps: number;
}

export const inspectCommand: Command<InspectArgs> = {
  name: 'inspect',
  usage: `  afr inspect <bundle.zip> [--steps N] [--json]
      what the bundle says: failure, last steps, errors, frames, clip length, size`,
  optionsBeforeName: true,
  parse(args) {
    const read = parseCheckArgs('inspect', args);
    if (typeof read === 'string') return read;
    return { name: 'inspect', file: read.file, json: read.json, steps: read.steps ?? DEFAULT_INSPECT_OPTIONS.lastSteps };
  },
  async run(args, io, print) {
    const zip = await readBundleFile(args.file, io, print);
    if (typeof zip === 'number') return zip;
    try {
      const inspection = await inspectBundle(zip, { ...DEFAULT_INSPECT_OPTIONS, lastSteps: args.steps });
      if (args.json) print.json(inspection);
      else print.out(inspectionLines(inspection));
      // What could be read is printed either way; a bundle missing part of itself is not a good one.
      return inspection.complete ? EXIT_OK : EXIT_INVALID;
    } catch (error) {
      if (!(error instanceof BundleZipError)) throw error;
      // One line, whatever the zip's entry names hold.
      print.err([`afr: ${args.file}: ${error.message}`]);
      return EXIT_INVALID;
    }
  },
};

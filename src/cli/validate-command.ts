import { parseCheckArgs, readBundleFile } from './check-options';
import { EXIT_INVALID, EXIT_OK, type Command } from './command';
import { validateBundle, validationLines } from './validate-bundle';

/** `afr validate <bundle.zip> [--json]` */
export interface ValidateArgs {
  name: 'validate';
  file: string;
  json: boolean;
}

export const validateCommand: Command<ValidateArgs> = {
  name: 'validate',
  usage: `  afr validate <bundle.zip> [--json]
      check each JSON file against its JSON Schema, the manifest against the files in the zip,
      and viewer.html against the viewer of this version`,
  optionsBeforeName: true,
  parse(args) {
    const read = parseCheckArgs('validate', args);
    if (typeof read === 'string') return read;
    if (read.steps !== undefined) return '--steps applies to inspect only';
    return { name: 'validate', file: read.file, json: read.json };
  },
  async run(args, io, print) {
    const zip = await readBundleFile(args.file, io, print);
    if (typeof zip === 'number') return zip;
    const report = await validateBundle(zip, io.loadSchemas(), () => io.loadViewer());
    if (args.json) print.json(report);
    else print.out(validationLines(report));
    return report.valid ? EXIT_OK : EXIT_INVALID;
  },
};

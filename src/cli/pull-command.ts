import { DEFAULT_ZIP_LIMITS } from '../bundle-format/open-zip';
import { errorMessage } from '../shared/error-message';
import { EXIT_INVALID, EXIT_OK, type Command } from './command';
import { parseS3Url, pullBundle } from './fleet';
import { openFleetStore, parseFleetArgs } from './fleet-command';
import { validateBundle, validationLines } from './validate-bundle';

/** `afr pull s3://bucket/prefix/<bundleId> [--out DIR] [--json]` */
export interface PullArgs {
  name: 'pull';
  location: string;
  out: string;
  json: boolean;
}

export const pullCommand: Command<PullArgs> = {
  name: 'pull',
  usage: `  afr pull s3://bucket/prefix/<bundleId> [--out DIR] [--json]
      download a delivered bundle to DIR/<bundleId>.zip (default: the current folder), check its
      SHA-256 against its index object, and validate it
      (credentials and region from the AWS chain: environment, ~/.aws profiles, SSO, instance role;
      another store than AWS S3 with AWS_ENDPOINT_URL_S3)`,
  parse(args) {
    const parsed = parseFleetArgs('pull', ['out'], args, 'pull needs a bundle: afr pull s3://bucket/prefix/<bundleId>');
    if (typeof parsed === 'string') return parsed;
    const { out, json } = parsed.read.values;
    return { name: 'pull', location: parsed.location, out: typeof out === 'string' ? out : '.', json: json === true };
  },
  async run(args, io, print) {
    const store = await openFleetStore(io, print);
    if (typeof store === 'number') return store;
    try {
      const slash = args.location.lastIndexOf('/');
      const bundleId = args.location.slice(slash + 1);
      const at = parseS3Url(args.location.slice(0, slash));
      const { zip, index } = await pullBundle(store, at, bundleId, DEFAULT_ZIP_LIMITS.maxTotalBytes);
      const file = `${args.out.replace(/\/+$/, '') || '.'}/${bundleId}.zip`;
      await io.writeFile(file, zip, false);
      const report = await validateBundle(zip, io.loadSchemas(), () => io.loadViewer());
      if (args.json) print.json({ file, index, validation: report });
      else print.out([`${file}: ${zip.byteLength} bytes, SHA-256 matches the index`, ...validationLines(report)]);
      return report.valid ? EXIT_OK : EXIT_INVALID;
    } catch (error) {
      print.err([`afr: ${args.location}: ${errorMessage(error)}`]);
      return EXIT_INVALID;
    }
  },
};

import { errorMessage } from '../shared/error-message';
import { EXIT_INVALID, EXIT_OK, EXIT_USAGE, type Command } from './command';
import { parseS3Url, pullBundle } from './fleet';
import { openFleetStore, parseFleetArgs } from './fleet-command';
import { formatBytes } from './format-bytes';
import { parseByteSize } from './parse-byte-size';
import { ARCHIVE, validateBundle, validationLines, type ValidationReport } from './validate-bundle';

/**
 * The largest bundle `pull` downloads unless told otherwise: far above what a recorder writes with its
 * default settings (tens of megabytes), and a bound on what a forged index can make it fetch. Validation
 * unpacks the bundle in memory, so this is also about the memory `pull` may take (twice or so).
 */
export const DEFAULT_PULL_MAX_BYTES = 1024 ** 3;

/** `afr pull s3://bucket/prefix/<bundleId> [--out DIR] [--max-bytes N] [--json]` */
export interface PullArgs {
  name: 'pull';
  location: string;
  out: string;
  maxBytes: number;
  json: boolean;
}

export const pullCommand: Command<PullArgs> = {
  name: 'pull',
  usage: `  afr pull s3://bucket/prefix/<bundleId> [--out DIR] [--max-bytes 1G] [--json]
      download a delivered bundle to DIR/<bundleId>.zip (default: the current folder): its index object
      must name that id and the zip's key where the bucket layout puts it; the zip streams to a hidden
      file in DIR, at most the index's size and --max-bytes (default 1G), and is kept only when its
      SHA-256 is the index's, it validates and its manifest names that id (else nothing is left in DIR)
      (credentials and region from the AWS chain: environment, ~/.aws profiles, SSO, instance role;
      another store than AWS S3 with AWS_ENDPOINT_URL_S3)`,
  parse(args) {
    const parsed = parseFleetArgs('pull', ['out', 'max-bytes'], args, 'pull needs a bundle: afr pull s3://bucket/prefix/<bundleId>');
    if (typeof parsed === 'string') return parsed;
    const { out, json, 'max-bytes': maxText } = parsed.read.values;
    const maxBytes = typeof maxText === 'string' ? parseByteSize(maxText) : DEFAULT_PULL_MAX_BYTES;
    if (maxBytes === null) return '--max-bytes needs a size: bytes, or with K, M or G (512M)';
    return { name: 'pull', location: parsed.location, out: typeof out === 'string' ? out : '.', maxBytes, json: json === true };
  },
  async run(args, io, print) {
    const dir = args.out.replace(/\/+$/, '') || (args.out.startsWith('/') ? '/' : '.');
    if (!io.stageFile) {
      print.err(['afr: this command line cannot write a downloaded bundle']);
      return EXIT_USAGE;
    }
    const store = await openFleetStore(io, print);
    if (typeof store === 'number') return store;
    const slash = args.location.lastIndexOf('/');
    const bundleId = args.location.slice(slash + 1);
    const file = `${dir === '/' ? '' : dir}/${bundleId}.zip`;
    let staged;
    try {
      staged = await io.stageFile(dir);
    } catch (error) {
      print.err([`afr: ${dir}: cannot write there (${errorMessage(error)})`]);
      return EXIT_USAGE;
    }
    try {
      const index = await pullBundle(store, parseS3Url(args.location.slice(0, slash)), bundleId, args.maxBytes, staged);
      const zip = await staged.bytes();
      const report = await validateBundle(zip, io.loadSchemas(), () => io.loadViewer());
      if (!report.valid) throw new Error(`${report.summary}${firstProblem(report)}; not kept`);
      if (report.bundle_id !== bundleId) throw new Error(`its manifest names bundle "${report.bundle_id ?? ''}", not ${bundleId}; not kept`);
      await staged.keepAs(file);
      if (args.json) print.json({ file, index, validation: report });
      else print.out([`${file}: ${formatBytes(zip.byteLength)}, SHA-256 matches the index`, ...validationLines(report)]);
      return EXIT_OK;
    } catch (error) {
      await staged.discard();
      const code = (error as NodeJS.ErrnoException).code;
      print.err([`afr: ${args.location}: ${code === 'EEXIST' ? `${file} exists already; not replaced` : errorMessage(error)}`]);
      return EXIT_INVALID;
    }
  },
};

/** The first problem of an invalid bundle, for its one line (the summary already says a zip's only problem). */
function firstProblem(report: ValidationReport): string {
  const first = report.problems[0];
  if (!first || first.file === ARCHIVE) return '';
  const more = report.problems.length > 1 ? `, and ${report.problems.length - 1} more` : '';
  return ` (${first.file}${first.pointer ? ` ${first.pointer}` : ''}: ${first.message}${more})`;
}

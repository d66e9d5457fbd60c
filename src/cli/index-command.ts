import { errorMessage } from '../shared/error-message';
import { EXIT_INVALID, EXIT_OK, type Command } from './command';
import { compactDay } from './compact-day';
import { parseS3Url, type FleetStore, type S3Location } from './fleet';
import { openFleetStore, parseFleetArgs } from './fleet-command';
import { folderFleetStore } from './folder-fleet-store';
import { formatBytes } from './format-bytes';
import { dayPath } from './index-compaction';

/** `afr index compact s3://bucket/prefix | <folder> --day YYYY-MM-DD [--json]` */
export interface IndexArgs {
  name: 'index';
  location: string;
  day: string;
  json: boolean;
}

export const indexCommand: Command<IndexArgs> = {
  name: 'index',
  usage: `  afr index compact s3://bucket/prefix | <folder> --day YYYY-MM-DD [--json]
      writes the day's index objects as one Parquet file, index-compact/<yyyy>/<mm>/<dd>.parquet
      (DuckDB's COPY … (FORMAT parquet)); safe to run again; afr triage then reads the file, and the
      day's loose objects only for bundles the file does not hold`,
  parse(args) {
    const [verb, ...rest] = args;
    if (verb !== 'compact') return `index wants a verb: afr index compact s3://bucket/prefix --day YYYY-MM-DD`;
    const parsed = parseFleetArgs('index', ['day'], rest, 'index compact needs a location: afr index compact s3://bucket/prefix --day YYYY-MM-DD');
    if (typeof parsed === 'string') return parsed;
    const { day, json } = parsed.read.values;
    if (typeof day !== 'string') return 'index compact needs --day YYYY-MM-DD';
    try {
      dayPath(day);
    } catch (error) {
      return errorMessage(error);
    }
    return { name: 'index', location: parsed.location, day, json: json === true };
  },
  async run(args, io, print) {
    let store: FleetStore;
    let at: S3Location;
    if (args.location.startsWith('s3://')) {
      const opened = await openFleetStore(io, print);
      if (typeof opened === 'number') return opened;
      store = opened;
    } else store = folderFleetStore(args.location);
    try {
      at = args.location.startsWith('s3://') ? parseS3Url(args.location) : { bucket: '', prefix: '' };
      let last = -Infinity;
      const result = await compactDay(store, at, args.day, (read) => {
        if (performance.now() - last < 200) return;
        last = performance.now();
        print.progress(`afr index compact: ${read.toLocaleString('en')} index objects read`);
      });
      print.progress(null);
      const where = args.location.startsWith('s3://') ? `s3://${at.bucket}/${result.key}` : result.key;
      if (args.json) print.json({ key: result.key, records: result.records, bytes: result.bytes, skipped: result.skipped });
      else print.out([`${result.records} index records of ${args.day} written to ${where} (${formatBytes(result.bytes)})`]);
      print.err(result.skipped.lines('afr'));
      return EXIT_OK;
    } catch (error) {
      print.progress(null);
      print.err([`afr: ${args.location}: ${errorMessage(error)}`]);
      return EXIT_INVALID;
    }
  },
};

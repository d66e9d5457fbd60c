import { DEFAULT_ZIP_LIMITS } from '../bundle-format/open-zip';
import { errorMessage } from '../shared/error-message';
import { formatFleetTable, listFleet, parseS3Url, parseSince, pullBundle, type FleetStore } from './fleet';
import type { CliIo } from './main';
import type { Printer } from './redact-command';
import { terminalJson } from './safe-text';
import { formatValidation, validateBundle } from './validate-bundle';

/** `afr ls s3://bucket/prefix [--since 24h] [--reason R] [--agent A] [--json]` */
export interface LsCommand {
  name: 'ls';
  location: string;
  since: string;
  reason?: string;
  agent?: string;
  json: boolean;
}

/** `afr pull s3://bucket/prefix/<bundleId> [--out DIR] [--json]` */
export interface PullCommand {
  name: 'pull';
  location: string;
  out: string;
  json: boolean;
}

export type FleetCommand = LsCommand | PullCommand;

export const FLEET_USAGE = `  afr ls s3://bucket/prefix [--since 24h] [--reason R] [--agent A] [--json]
      the bundles a fleet delivered to the bucket in the window (index objects), newest first
  afr pull s3://bucket/prefix/<bundleId> [--out DIR] [--json]
      download a delivered bundle to DIR/<bundleId>.zip (default: the current folder), check its
      SHA-256 against its index object, and validate it
      (credentials and region from the AWS chain: environment, ~/.aws profiles, SSO, instance role;
      another store than AWS S3 with AWS_ENDPOINT_URL_S3)`;

/** Reads `ls`/`pull` arguments (after the verb); a string is a usage error. */
export function parseFleetArgs(verb: 'ls' | 'pull', args: readonly string[]): FleetCommand | string {
  const positionals: string[] = [];
  const options: Record<string, string> = {};
  let json = false;
  const takes = verb === 'ls' ? ['--since', '--reason', '--agent'] : ['--out'];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--json') json = true;
    else if (arg.startsWith('--')) {
      const [name, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
      if (!takes.includes(name)) return `${name} does not apply to ${verb}`;
      const value = inline ?? args[++i];
      if (value === undefined) return `${name} needs a value`;
      options[name.slice(2)] = value;
    } else positionals.push(arg);
  }
  const [location, ...extra] = positionals;
  if (location === undefined) return verb === 'ls' ? 'ls needs a location: afr ls s3://bucket/prefix' : 'pull needs a bundle: afr pull s3://bucket/prefix/<bundleId>';
  if (extra.length) return `one location at a time (extra: ${extra.join(' ')})`;
  if (verb === 'pull') return { name: 'pull', location, out: options.out ?? '.', json };
  return { name: 'ls', location, since: options.since ?? '24h', ...(options.reason ? { reason: options.reason } : {}), ...(options.agent ? { agent: options.agent } : {}), json };
}

/** Runs `ls` or `pull` against the bucket `io.fleetStore` reaches; returns the exit status. */
export async function runFleet(command: FleetCommand, io: CliIo, print: Printer): Promise<number> {
  if (!io.fleetStore) {
    print.err('afr: this command line cannot reach object storage\n');
    return 2;
  }
  let store: FleetStore;
  try {
    store = await io.fleetStore();
  } catch (error) {
    print.err(`afr: object storage: ${errorMessage(error)}\n`);
    return 1;
  }
  try {
    if (command.name === 'ls') {
      const now = io.now().getTime();
      const { records, unreadable } = await listFleet(store, parseS3Url(command.location), { since: parseSince(command.since, now), until: now, reason: command.reason, agent: command.agent });
      print.out(command.json ? terminalJson({ bundles: records, unreadable }) : formatFleetTable(records));
      for (const key of unreadable) print.err(`afr: ${key}: not an index record, left out\n`);
      return 0;
    }
    const slash = command.location.lastIndexOf('/');
    const bundleId = command.location.slice(slash + 1);
    const at = parseS3Url(command.location.slice(0, slash));
    const { zip, index } = await pullBundle(store, at, bundleId, DEFAULT_ZIP_LIMITS.maxTotalBytes);
    const file = `${command.out.replace(/\/+$/, '') || '.'}/${bundleId}.zip`;
    await io.writeFile(file, zip, false);
    const report = await validateBundle(zip, io.loadSchemas(), () => io.loadViewer());
    print.out(command.json ? terminalJson({ file, index, validation: report }) : `${file}: ${zip.byteLength} bytes, SHA-256 matches the index\n${formatValidation(report)}`);
    return report.valid ? 0 : 1;
  } catch (error) {
    print.err(`afr: ${command.location}: ${errorMessage(error)}\n`);
    return 1;
  }
}

import { errorMessage } from '../shared/error-message';
import { EXIT_INVALID, EXIT_USAGE, type CliIo, type ExitCode, type Printer } from './command';
import type { FleetStore } from './fleet';
import { parseOptions, type ReadOptions } from './parse-options';

/**
 * Reads the arguments of `ls` or `pull` (after the verb), whose options each take a value but `--json`;
 * a string is a usage error. `missing` says what the location is when it is not given.
 */
export function parseFleetArgs(verb: 'ls' | 'pull' | 'triage' | 'index', takes: readonly string[], args: readonly string[], missing: string, flags: readonly string[] = []): { location: string; read: ReadOptions } | string {
  const read = parseOptions(args, {
    options: {
      json: { type: 'boolean' },
      ...Object.fromEntries(flags.map((name) => [name, { type: 'boolean' as const }])),
      ...Object.fromEntries(takes.map((name) => [name, { type: 'string' as const }])),
    },
    unknown: (name) => `${name} does not apply to ${verb}`,
    dashWordsArePositional: true,
    noTerminator: true,
  });
  if (typeof read === 'string') return read;
  const [location, ...extra] = read.positionals.map((p) => p.value);
  if (location === undefined) return missing;
  if (extra.length) return `one location at a time (extra: ${extra.join(' ')})`;
  return { location, read };
}

/** What `ls` and `triage` read: a location, a window back from now, and filters on the failures. */
export interface WindowArgs {
  location: string;
  since: string;
  reason?: string;
  agent?: string;
  json: boolean;
}

/** The arguments of `ls` or `triage`: `--since` (default 24h), `--reason`, `--agent`, `--json`; a string is a usage error. */
export function parseWindowArgs(verb: 'ls' | 'triage', args: readonly string[], missing: string, more: { takes?: readonly string[]; flags?: readonly string[] } = {}): (WindowArgs & { values: ReadOptions['values'] }) | string {
  const parsed = parseFleetArgs(verb, ['since', 'reason', 'agent', ...(more.takes ?? [])], args, missing, more.flags);
  if (typeof parsed === 'string') return parsed;
  const { since, reason, agent, json } = parsed.read.values;
  return {
    values: parsed.read.values,
    location: parsed.location,
    since: typeof since === 'string' ? since : '24h',
    ...(typeof reason === 'string' && reason ? { reason } : {}),
    ...(typeof agent === 'string' && agent ? { agent } : {}),
    json: json === true,
  };
}

/** The bucket `io.fleetStore` reaches, or the exit status after saying in one line why not. */
export async function openFleetStore(io: CliIo, print: Printer): Promise<FleetStore | ExitCode> {
  if (!io.fleetStore) {
    print.err(['afr: this command line cannot reach object storage']);
    return EXIT_USAGE;
  }
  try {
    return await io.fleetStore();
  } catch (error) {
    print.err([`afr: object storage: ${errorMessage(error)}`]);
    return EXIT_INVALID;
  }
}

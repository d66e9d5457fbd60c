import { EXIT_USAGE, type CliIo, type ExitCode, type Printer } from './command';
import { parseOptions, type OptionRules } from './parse-options';
import { describeReadError } from './read-error';

const STEPS_NUMBER = '--steps needs a whole number (0 for all steps)';

/**
 * The options of `inspect`, `validate` and `redact`, read as one set wherever they stand, before the
 * command's name too (`afr --json inspect b.zip`): an option of another of the three is refused by name.
 */
export const CHECK_RULES: OptionRules = {
  options: {
    help: { type: 'boolean', short: 'h' },
    json: { type: 'boolean' },
    steps: { type: 'string', missing: STEPS_NUMBER, check: (value) => (/^\d+$/.test(value) ? undefined : STEPS_NUMBER) },
    pattern: { type: 'string', multiple: true },
    out: { type: 'string' },
    'drop-frames': { type: 'boolean' },
    force: { type: 'boolean' },
  },
  unknown: (_name, word) => `unknown option ${word}`,
};

const REDACT_ONLY = new Set(['--pattern', '--out', '--drop-frames', '--force']);

/** What `inspect`, `validate` and `redact` share: one bundle, and the options given. */
export interface CheckArgs {
  file: string;
  json: boolean;
  steps?: number;
  patterns: string[];
  out?: string;
  dropFrames: boolean;
  force: boolean;
}

/** Reads the arguments of `command` (one of the three, its name taken out); a string is a usage error. */
export function parseCheckArgs(command: 'inspect' | 'validate' | 'redact', args: readonly string[]): CheckArgs | string {
  const read = parseOptions(args, CHECK_RULES);
  if (typeof read === 'string') return read;
  const { values, positionals, order } = read;
  const [file, ...extra] = positionals.map((p) => p.value);
  if (file === undefined) return `${command} needs a bundle: afr ${command} <bundle.zip>`;
  if (extra.length > 0) return `one bundle at a time (extra: ${extra.join(' ')})`;
  const redactOption = order.findLast((name) => REDACT_ONLY.has(name));
  if (redactOption !== undefined && command !== 'redact') return `${redactOption} applies to redact only`;
  return {
    file,
    json: values.json === true,
    ...(typeof values.steps === 'string' ? { steps: Number(values.steps) } : {}),
    patterns: (values.pattern as string[] | undefined) ?? [],
    ...(typeof values.out === 'string' ? { out: values.out } : {}),
    dropFrames: values['drop-frames'] === true,
    force: values.force === true,
  };
}

/** Reads the bundle `inspect` and `validate` were given, or says in one line why not (exit status 2). */
export async function readBundleFile(file: string, io: CliIo, print: Printer): Promise<Uint8Array | ExitCode> {
  try {
    return await io.readFile(file);
  } catch (error) {
    print.err([`afr: ${describeReadError(file, error)}`]);
    return EXIT_USAGE;
  }
}

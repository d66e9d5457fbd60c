import { BundleReadError } from '../reads/errors';
import { openBundle, type BundleReader } from '../reads/open-bundle';
import type { Asker, ReadName } from '../reads/render-text';
import { EXIT_INVALID, EXIT_USAGE, type CliIo, type Command, type ExitCode, type Printer } from './command';
import { parseOptions, type OptionSpec } from './parse-options';
import { readBundleFile } from './check-options';

/** The verbs that read one bundle for a person or an agent (`src/reads/`): a command each. */
export type ReadVerb = 'summary' | 'steps' | 'step' | 'frame' | 'dom' | 'console' | 'requests' | 'request' | 'har' | 'errors' | 'fixture';

/** `afr <verb> <bundle.zip> [args]`, read. */
export interface ReadArgs {
  name: 'read';
  verb: ReadVerb;
  file: string;
  json: boolean;
  /** `requests --failed`: the failed requests `diagnostics.json` kept, not every request of `network.har`. */
  failed?: boolean;
  /** `step N`, `frame N`, `request N`. */
  index?: number;
  page?: number;
  pageSize?: number;
  /** `frame --at MS` (from the failure), `frame --step N`, `dom --step N`. */
  at?: number;
  step?: number;
  out?: string;
  force?: boolean;
  width?: number;
  depth?: number;
  selector?: string;
  node?: number;
  maxNodes?: number;
}

/** Every read's options, by the verbs that take them: an option of another verb is refused by name. */
const VALUE_OPTIONS: Record<string, { verbs: readonly ReadVerb[]; key: keyof ReadArgs; integer: boolean; min?: number }> = {
  '--page': { verbs: ['steps', 'console', 'requests'], key: 'page', integer: true, min: 1 },
  '--page-size': { verbs: ['steps', 'console', 'requests'], key: 'pageSize', integer: true, min: 1 },
  '--at': { verbs: ['frame'], key: 'at', integer: true },
  '--step': { verbs: ['frame', 'dom'], key: 'step', integer: true, min: 1 },
  '--out': { verbs: ['frame', 'har', 'fixture'], key: 'out', integer: false },
  '--width': { verbs: ['frame'], key: 'width', integer: true, min: 16 },
  '--depth': { verbs: ['dom'], key: 'depth', integer: true, min: 0 },
  '--selector': { verbs: ['dom'], key: 'selector', integer: false },
  '--node': { verbs: ['dom'], key: 'node', integer: true, min: 1 },
  '--max-nodes': { verbs: ['dom'], key: 'maxNodes', integer: true, min: 1 },
};

const wholeNumber = (min: number | undefined) => (value: string, name: string) =>
  /^-?\d+$/.test(value) && Number(value) >= (min ?? -Infinity) ? undefined : `${name} needs a whole number${min !== undefined ? ` from ${min}` : ''} (got ${JSON.stringify(value)})`;

/** Reads the arguments after a read verb; a string is a usage error. */
export function parseReadArgs(verb: ReadVerb, args: readonly string[]): ReadArgs | string {
  const options: Record<string, OptionSpec> = {
    json: { type: 'boolean' },
    ...(verb === 'frame' || verb === 'har' || verb === 'fixture' ? { force: { type: 'boolean' } } : {}),
    ...(verb === 'requests' ? { failed: { type: 'boolean' } } : {}),
  };
  for (const [name, option] of Object.entries(VALUE_OPTIONS)) {
    if (option.verbs.includes(verb)) options[name.slice(2)] = { type: 'string', ...(option.integer ? { check: wholeNumber(option.min) } : {}) };
  }
  const read = parseOptions(args, {
    options,
    unknown: (name) => (VALUE_OPTIONS[name] ? `${name} does not apply to ${verb}` : `unknown option ${name}`),
    // `afr step b.zip -1` is an index (refused below), not an option.
    dashWordsArePositional: true,
  });
  if (typeof read === 'string') return read;
  const command: ReadArgs = {
    name: 'read',
    verb,
    file: '',
    json: read.values.json === true,
    ...(read.values.force === true ? { force: true } : {}),
    ...(read.values.failed === true ? { failed: true } : {}),
  };
  for (const [name, option] of Object.entries(VALUE_OPTIONS)) {
    const value = read.values[name.slice(2)];
    if (typeof value === 'string') (command as unknown as Record<string, unknown>)[option.key] = option.integer ? Number(value) : value;
  }
  const [file, index, ...extra] = read.positionals.map((p) => p.value);
  if (file === undefined) return `${verb} needs a bundle: afr ${verb} <bundle.zip>`;
  command.file = file;
  const takesIndex = verb === 'step' || verb === 'frame' || verb === 'request';
  if (extra.length > 0 || (index !== undefined && !takesIndex)) return `one bundle at a time (extra: ${[...(takesIndex ? [] : [index]), ...extra].join(' ')})`;
  if (index !== undefined) {
    if (!/^\d+$/.test(index) || Number(index) < 1) return `${verb} needs a 1-based index (got ${JSON.stringify(index)})`;
    command.index = Number(index);
  }
  if ((verb === 'step' || verb === 'request') && command.index === undefined) return `${verb} needs an index: afr ${verb} <bundle.zip> <N>`;
  if (verb === 'frame') {
    const picks = [command.index, command.at, command.step].filter((p) => p !== undefined).length;
    if (picks !== 1) return 'frame needs one of: an index N, --at <ms>, --step <N>';
  }
  if (command.selector !== undefined && command.node !== undefined) return '--selector and --node do not go together: pick one scope';
  return command;
}

/** Quotes a path for a shell line when it needs it. */
const shellWord = (word: string) => (/^[\w./:@%+=,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

/** How `afr` asks for a read: `afr steps b.zip --page 2` (`self`: how the user runs afr, `npx afr` in a checkout). */
export function cliAsker(file: string, self = 'afr'): Asker {
  return (read: ReadName, args) => {
    const { index, ...flags } = args;
    const words = [self, read, shellWord(file), ...(index !== undefined ? [String(index)] : [])];
    for (const [name, value] of Object.entries(flags)) words.push(`--${name}`, ...(value === true ? [] : [shellWord(String(value))]));
    return words.join(' ');
  };
}

/** What a read does with the opened bundle. */
export interface ReadContext {
  args: ReadArgs;
  reader: BundleReader;
  io: CliIo;
  print: Printer;
  /** How the answer names a next read. */
  ask: Asker;
  /** Prints the view as JSON with `--json`, else its lines. */
  show(view: unknown, lines: string[]): void;
}

/**
 * A read verb as a command: parsed by `parseReadArgs`, run on the opened bundle; exit status 0, 1 for a
 * file that is not a readable bundle, 2 for bad arguments (an index, page, step or node out of range).
 */
export function readCommand(verb: ReadVerb, usage: string, answer: (read: ReadContext) => Promise<ExitCode>): Command<ReadArgs> {
  return {
    name: verb,
    usage,
    briefErrors: true,
    parse: (args) => parseReadArgs(verb, args),
    async run(args, io, print) {
      const zip = await readBundleFile(args.file, io, print);
      if (!(zip instanceof Uint8Array)) return zip;
      try {
        const reader = await openBundle(zip);
        const show = (view: unknown, lines: string[]) => (args.json ? print.json(view) : print.out(lines));
        return await answer({ args, reader, io, print, ask: cliAsker(args.file, io.commandName?.()), show });
      } catch (error) {
        if (!(error instanceof BundleReadError)) throw error;
        print.err([`afr: ${args.file}: ${error.message}`]);
        return error.kind === 'argument' ? EXIT_USAGE : EXIT_INVALID;
      }
    },
  };
}

import { parseArgs } from 'node:util';

export type OptionSpec =
  | { type: 'boolean'; short?: string }
  | {
      type: 'string';
      multiple?: true;
      /** The usage error when the option has no value (default: `--name needs a value`). */
      missing?: string;
      /** A usage error for this value, or undefined: checked where the option stands. */
      check?(value: string, name: string): string | undefined;
    };

/** How one command reads its words. */
export interface OptionRules {
  /** Its options by long name (without `--`). */
  options: Record<string, OptionSpec>;
  /** The usage error for an option it does not take: `name` is the word up to any `=`, `word` all of it. */
  unknown(name: string, word: string): string;
  /** Words starting with one dash (`-5`, `-x`) are positionals, not options (default: options). */
  dashWordsArePositional?: true;
  /** `--` is an option like another (and so unknown), not the end of the options (default: the end). */
  noTerminator?: true;
  /** A usage error for a positional, or undefined: checked where it stands. */
  positional?(word: string): string | undefined;
}

export interface ReadOptions {
  /** Booleans as `true`, strings as given (the last one, or all of them for `multiple`). */
  values: Record<string, boolean | string | string[]>;
  /** The options' names (`--out`) in the order given. */
  order: string[];
  /** Each positional with its index in the arguments. */
  positionals: { value: string; index: number }[];
}

/**
 * Reads a command's arguments with `node:util`'s `parseArgs` (not strict, with tokens), then checks each
 * token, in order, against `rules`: the first problem is the usage error (a string). An option's value
 * may start with a dash (`--at -1500`); `--json=1` is not `--json`.
 */
export function parseOptions(args: readonly string[], rules: OptionRules): ReadOptions | string {
  const declared = Object.fromEntries(Object.entries(rules.options).map(([name, spec]) => [name, { type: spec.type, ...(spec.type === 'boolean' && spec.short ? { short: spec.short } : {}) }]));
  const { tokens } = parseArgs({ args: [...args], options: declared, strict: false, allowPositionals: true, tokens: true });
  const read: ReadOptions = { values: {}, order: [], positionals: [] };
  const seen = new Set<number>();
  for (const token of tokens) {
    // `-xy` comes as two tokens of one word: the word is read once.
    if (seen.has(token.index)) continue;
    seen.add(token.index);
    const word = args[token.index]!;
    if (token.kind === 'option-terminator') {
      if (rules.noTerminator) return rules.unknown(word, word);
      continue;
    }
    const single = token.kind === 'option' && !word.startsWith('--');
    if (token.kind === 'positional' || (single && rules.dashWordsArePositional)) {
      const problem = rules.positional?.(word);
      if (problem !== undefined) return problem;
      read.positionals.push({ value: word, index: token.index });
      continue;
    }
    const name = word.includes('=') ? word.slice(0, word.indexOf('=')) : word;
    const key = single ? Object.keys(rules.options).find((k) => { const s = rules.options[k]!; return s.type === 'boolean' && `-${s.short}` === word; }) : name.slice(2);
    const spec = key === undefined ? undefined : rules.options[key];
    if (key === undefined || spec === undefined || (spec.type === 'boolean' && word !== name)) return rules.unknown(name, word);
    read.order.push(name);
    if (spec.type === 'boolean') {
      read.values[key] = true;
      continue;
    }
    const value = token.kind === 'option' ? token.value : undefined;
    if (value === undefined) return spec.missing ?? `${name} needs a value`;
    const problem = spec.check?.(value, name);
    if (problem !== undefined) return problem;
    if (spec.multiple) read.values[key] = [...((read.values[key] as string[] | undefined) ?? []), value];
    else read.values[key] = value;
  }
  return read;
}

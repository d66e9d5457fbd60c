import { diffRuns } from '../diff/diff-runs';
import { diffLines } from '../diff/diff-text';
import { readRun } from '../diff/read-run';
import type { RunData } from '../diff/run-data';
import { BundleReadError } from '../reads/errors';
import { openBundle } from '../reads/open-bundle';
import { EXIT_INVALID, EXIT_OK, EXIT_USAGE, type Command } from './command';
import { parseOptions } from './parse-options';
import { readBundleFile } from './check-options';

/** `afr diff <a.zip> <b.zip> [--json]` */
export interface DiffArgs {
  name: 'diff';
  a: string;
  b: string;
  json: boolean;
}

export const diffCommand: Command<DiffArgs> = {
  name: 'diff',
  usage: `  afr diff <a.zip> <b.zip> [--json]
      two runs compared (a passing one and a failing one): their steps lined up by action and target,
      the first step where they diverge with its page change, requests of another status or JSON shape,
      new console errors and exceptions; then the other steps that differ, much slower steps and the
      values given differently. Exit 0 the runs match, 1 they differ, 2 a file is not a readable bundle`,
  briefErrors: true,
  parse(args) {
    const read = parseOptions(args, { options: { json: { type: 'boolean' } }, unknown: (name) => `unknown option ${name}` });
    if (typeof read === 'string') return read;
    const files = read.positionals.map((p) => p.value);
    if (files.length !== 2) return `diff needs two bundles: afr diff <a.zip> <b.zip>${files.length > 2 ? ` (extra: ${files.slice(2).join(' ')})` : ''}`;
    return { name: 'diff', a: files[0]!, b: files[1]!, json: read.values.json === true };
  },
  async run(args, io, print) {
    // Like diff(1): 2 for trouble, whichever bundle it was in.
    const runs: RunData[] = [];
    for (const file of [args.a, args.b]) {
      const zip = await readBundleFile(file, io, print);
      if (!(zip instanceof Uint8Array)) return zip;
      try {
        runs.push(await readRun(await openBundle(zip)));
      } catch (error) {
        if (!(error instanceof BundleReadError)) throw error;
        print.err([`afr: ${file}: ${error.message}`]);
        return EXIT_USAGE;
      }
    }
    const diff = diffRuns(runs[0]!, runs[1]!);
    if (args.json) print.json({ a: args.a, b: args.b, ...diff });
    else print.out(diffLines(diff, { a: args.a, b: args.b }));
    return diff.same ? EXIT_OK : EXIT_INVALID;
  },
};

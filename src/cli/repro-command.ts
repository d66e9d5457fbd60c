import path from 'node:path';
import { BundleReadError } from '../reads/errors';
import { openBundle } from '../reads/open-bundle';
import { isSemantic } from '../repro/locator';
import { recordedResponses, ResponseQueue } from '../repro/offline-responses';
import { reproPlan, type ReproPlan } from '../repro/repro-plan';
import { FAILURE_WAIT_MS, replayPlan, verdictLine, type ReplayResult } from '../repro/replay';
import { writeReproScript, type ReproLang, REPRO_LANGS } from '../repro/write-script';
import { errorMessage } from '../shared/error-message';
import { EXIT_INVALID, EXIT_OK, EXIT_USAGE, type CliIo, type Command, type ExitCode, type Printer } from './command';
import { parseOptions } from './parse-options';
import { reproSource } from './repro-source';
import { readBundleFile } from './check-options';

/** `afr repro <bundle.zip> --out <file> [--lang ts|python|devtools] [--offline] [--force]` or `--run [--offline] [--headed] [--json]` */
export interface ReproArgs {
  name: 'repro';
  file: string;
  out?: string;
  lang: ReproLang;
  offline: boolean;
  run: boolean;
  headed: boolean;
  json: boolean;
  force: boolean;
  extension?: string;
  /** `--wait S`: how long `--run` waits for the failure after its step (default `FAILURE_WAIT_MS`). */
  waitMs?: number;
}

/** Exit status of `--run`: 0 reproduced, 1 not reproduced or diverged (like a test), 2 bad input. */
const verdictExit = (result: ReplayResult): ExitCode => (result.verdict.verdict === 'reproduced' ? EXIT_OK : EXIT_INVALID);

/** Reads `afr repro`'s arguments; a string is a usage error. */
export function parseReproArgs(args: readonly string[]): ReproArgs | string {
  const read = parseOptions(args, {
    options: {
      out: { type: 'string' },
      lang: { type: 'string' },
      offline: { type: 'boolean' },
      force: { type: 'boolean' },
      run: { type: 'boolean' },
      headed: { type: 'boolean' },
      json: { type: 'boolean' },
      extension: { type: 'string' },
      wait: { type: 'string', check: (value, name) => (/^\d+(\.\d+)?$/.test(value) && Number(value) <= 600 ? undefined : `${name} takes seconds, 0 to 600 (got ${JSON.stringify(value)})`) },
    },
    unknown: (name) => `unknown option ${name}`,
  });
  if (typeof read === 'string') return read;
  const [file, ...extra] = read.positionals.map((p) => p.value);
  if (file === undefined) return 'repro needs a bundle: afr repro <bundle.zip> --out <file> | --run';
  if (extra.length > 0) return `one bundle at a time (extra: ${extra.join(' ')})`;
  const v = read.values;
  const lang = typeof v.lang === 'string' ? v.lang : 'ts';
  if (!(REPRO_LANGS as readonly string[]).includes(lang)) return `--lang takes ${REPRO_LANGS.join(', ')} (got ${JSON.stringify(lang)})`;
  const run = v.run === true;
  const out = typeof v.out === 'string' ? v.out : undefined;
  if (run === (out !== undefined)) return 'repro needs one of --out <file> (write a script) or --run (replay it here)';
  if (!run && (v.headed === true || v.json === true || v.extension !== undefined || v.wait !== undefined)) return '--headed, --json, --extension and --wait go with --run';
  if (run && (v.lang !== undefined || v.force === true)) return '--lang and --force go with --out';
  if (lang === 'devtools' && v.offline === true) return 'a DevTools Recorder flow cannot answer requests itself: --offline goes with --lang ts or python';
  return {
    name: 'repro',
    file,
    ...(out !== undefined ? { out } : {}),
    lang: lang as ReproLang,
    offline: v.offline === true,
    run,
    headed: v.headed === true,
    json: v.json === true,
    force: v.force === true,
    ...(typeof v.extension === 'string' ? { extension: v.extension } : {}),
    ...(typeof v.wait === 'string' ? { waitMs: Math.round(Number(v.wait) * 1000) } : {}),
  };
}

/** Share of the acting steps found by a semantic locator (role, label, text, test id), not CSS. */
export function semanticShare(plan: ReproPlan): { semantic: number; acting: number } {
  const acting = plan.actions.filter((a) => a.op === 'click' || a.op === 'fill' || a.op === 'select' || a.op === 'press');
  return { semantic: acting.filter((a) => 'locators' in a && isSemantic(a.locators)).length, acting: acting.length };
}

async function runReplay(args: ReproArgs, plan: ReproPlan, har: ReturnType<typeof recordedResponses> | null, io: CliIo, print: Printer): Promise<ExitCode> {
  if (!io.launchReproBrowser) {
    print.err(['afr: repro --run: no browser can be started here']);
    return EXIT_USAGE;
  }
  const env = io.env?.() ?? {};
  const started = Date.now();
  let browser;
  try {
    browser = await io.launchReproBrowser({ env, headed: args.headed, viewport: plan.viewport, offline: har ? new ResponseQueue(har) : null, ...(args.extension !== undefined ? { extension: args.extension } : {}) });
  } catch (error) {
    print.err([`afr: repro --run: ${errorMessage(error).split('\n')[0]}`]);
    return EXIT_USAGE;
  }
  try {
    const result = await replayPlan(plan, browser.driver, env, args.waitMs ?? FAILURE_WAIT_MS);
    const ms = Date.now() - started;
    // The recorder bundles a failure on its own: its bundle of the replay, beside the input, when it made one.
    const bundle = result.verdict.verdict === 'reproduced' ? await browser.saveNewBundle(path.dirname(path.resolve(args.file)), 15_000) : null;
    const unrecorded = browser.unrecorded();
    if (args.json) {
      print.json({ ...result.verdict, line: verdictLine(result), expected: result.expected, located: result.located, offline: args.offline, unrecorded, recorder: browser.recorder !== null, bundle, ms });
    } else {
      print.out([verdictLine(result), ...(bundle ? [`the recorder's bundle of this replay: ${bundle}`] : []), ...(unrecorded.length ? [`not in the bundle, aborted: ${unrecorded.join(', ')}`] : [])]);
      if (!browser.recorder) print.err(['afr: the recorder was not loaded (no built extension: npm run build, or --extension <dir>)']);
    }
    return verdictExit(result);
  } finally {
    await browser.close();
  }
}

export const reproCommand: Command<ReproArgs> = {
  name: 'repro',
  usage: `  afr repro <bundle.zip> --out <file> [--lang ts|python|devtools] [--offline] [--force]
      a script that replays the bundle's steps and ends with its failure as the expectation: a
      Playwright test (ts, the default), Playwright for Python, or a Chrome DevTools Recorder flow;
      withheld values come from AFR_<FIELD> variables; --offline answers from its network.har
  afr repro <bundle.zip> --run [--offline] [--headed] [--json] [--extension <dir>] [--wait S]
      replays it in Chromium (CHROME_PATH) with the recorder and says reproduced (exit 0), not
      reproduced or diverged at step N (exit 1); --wait: seconds the failure may take (default 10)`,
  parse: parseReproArgs,
  async run(args, io, print) {
    const zip = await readBundleFile(args.file, io, print);
    if (!(zip instanceof Uint8Array)) return zip;
    try {
      const started = Date.now();
      const source = await reproSource(await openBundle(zip));
      if (args.offline && !source.har) {
        print.err([`afr: ${args.file}: --offline needs the bundle's network.har, and this bundle has none`]);
        return EXIT_INVALID;
      }
      const plan = reproPlan(source);
      print.err(plan.missing.map((m) => `afr: missing from the bundle: ${m}`));
      if (args.run) return await runReplay(args, plan, args.offline && source.har ? recordedResponses(source.har) : null, io, print);
      const text = writeReproScript(args.lang, plan, source.har, { offline: args.offline, command: `afr repro ${path.basename(args.file)} --out ${path.basename(args.out!)}${args.lang !== 'ts' ? ` --lang ${args.lang}` : ''}${args.offline ? ' --offline' : ''}` });
      try {
        await io.writeFile(args.out!, new TextEncoder().encode(text), args.force);
      } catch (error) {
        print.err([`afr: ${args.out}: ${(error as NodeJS.ErrnoException).code === 'EEXIST' ? 'exists (--force replaces it)' : errorMessage(error)}`]);
        return EXIT_USAGE;
      }
      const share = semanticShare(plan);
      print.out([`wrote ${args.out} (${args.lang}, ${share.acting} steps, ${share.semantic} found by role, label, text or test id) in ${Date.now() - started} ms`]);
      return EXIT_OK;
    } catch (error) {
      if (!(error instanceof BundleReadError)) throw error;
      print.err([`afr: ${args.file}: ${error.message}`]);
      return EXIT_INVALID;
    }
  },
};

import { RedactionRulesSchema } from '../../schemas/redaction-rules';
import { BundleZipError, openBundleZip } from '../bundle-format/open-zip';
import { VIEWER_FILE } from '../bundle-format/file-names';
import { compileRedactionRules } from '../redact/custom-rules';
import { TEXT_MASK_KINDS } from '../redact/redaction-counts';
import { errorMessage } from '../shared/error-message';
import { parseCheckArgs } from './check-options';
import { EXIT_INVALID, EXIT_OK, type CliIo, type Command, type ExitCode, type Printer } from './command';
import { describeReadError } from './read-error';
import { RedactError, redactBundle, type RedactResult } from './redact-bundle';
import { totalMasked } from './remask-json';
import { validateBundle, validationLines } from './validate-bundle';
import type { ExpectedViewer } from './viewer-check';

/** `afr redact <bundle.zip> [--pattern RE]… [--drop-frames] --out <file> [--force]` */
export interface RedactArgs {
  name: 'redact';
  file: string;
  out: string;
  /** Regular expression sources, as given. */
  patterns: string[];
  dropFrames: boolean;
  force: boolean;
}

/**
 * The custom patterns, checked as the settings check custom text patterns (`RedactionRulesSchema`: at
 * most 100, each 1 to 512 characters and a valid `u` regular expression), compiled as the recorder
 * compiles them; or one line per pattern it refuses.
 */
export function compilePatterns(sources: readonly string[]): { patterns: RegExp[] } | { errors: string[] } {
  const checked = RedactionRulesSchema.safeParse({ selectors: [], fieldNamePatterns: [], textPatterns: sources });
  if (!checked.success) {
    return {
      errors: checked.error.issues.map((issue) => {
        const index = issue.path[1];
        return typeof index === 'number' ? `--pattern ${JSON.stringify(sources[index])}: ${issue.message}` : `--pattern: ${issue.message}`;
      }),
    };
  }
  const { rules, problems } = compileRedactionRules({ selectors: [], fieldNamePatterns: [], textPatterns: [...sources] }, () => true);
  return problems.length ? { errors: problems.map((p) => `--pattern: ${p}`) } : { patterns: [...rules.textPatterns] };
}

/** The report's lines on what was masked: by kind, then by custom pattern. */
export function describeMasking(result: Pick<RedactResult, 'counts'>, sources: readonly string[]): string[] {
  const { kinds, patterns } = result.counts;
  const byKind = TEXT_MASK_KINDS.filter((kind) => kind !== 'custom' && kinds[kind] > 0).map((kind) => `${kind} ${kinds[kind]}`);
  const lines = [`masked ${totalMasked(result.counts)} span${totalMasked(result.counts) === 1 ? '' : 's'} of text${byKind.length ? `: ${byKind.join(', ')}` : ''}`];
  sources.forEach((source, i) => lines.push(`  --pattern ${JSON.stringify(source)}: ${patterns[i] ?? 0}`));
  return lines;
}

/**
 * Runs `afr redact`: reads the bundle with the bounded reader, masks it again (`redactBundle`), writes
 * `--out` (never over the input; over an existing file only with `--force`), then validates what it
 * wrote with the code of `afr validate`. Every failure is one line on stderr and exit status 1.
 */
async function runRedact(command: RedactArgs, io: CliIo, print: Printer): Promise<ExitCode> {
  const fail = (message: string): ExitCode => {
    print.err([`afr: ${message}`]);
    return EXIT_INVALID;
  };
  const compiled = compilePatterns(command.patterns);
  if ('errors' in compiled) {
    print.err(compiled.errors.map((e) => `afr: ${e}`));
    return EXIT_INVALID;
  }
  try {
    if (await io.sameFile(command.file, command.out)) return fail(`${command.out}: is the input bundle; redact writes a new file (--out another path)`);
    let input: Uint8Array;
    try {
      input = await io.readFile(command.file);
    } catch (error) {
      return fail(describeReadError(command.file, error));
    }
    const archive = await openBundleZip(input);
    // Made once (esbuild, about a second): to write viewer.html again, then to check it.
    let viewer: ExpectedViewer | null = null;
    if (archive.files.has(VIEWER_FILE)) viewer = await io.loadViewer().catch(() => null);
    const expectedViewer = () => (viewer ? Promise.resolve(viewer) : io.loadViewer());
    const result = await redactBundle(archive, io.loadSchemas(), {
      patterns: compiled.patterns,
      dropFrames: command.dropFrames,
      now: io.now(),
      tool: `afr ${io.version()}`,
      viewer,
    });
    try {
      await io.writeFile(command.out, result.zip, command.force);
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      return fail(code === 'EEXIST' ? `${command.out}: exists (--force replaces it)` : `${command.out}: cannot write (${errorMessage(error)})`);
    }
    // What was written, read back: the check is of the file on disk, by the code of `afr validate`.
    const report = await validateBundle(await io.readFile(command.out), io.loadSchemas(), expectedViewer);
    print.out([`wrote ${command.out}`, ...describeMasking(result, command.patterns), ...result.notes, ...validationLines(report)]);
    return report.valid ? EXIT_OK : EXIT_INVALID;
  } catch (error) {
    if (error instanceof BundleZipError || error instanceof RedactError) return fail(`${command.file}: ${error.message}`);
    return fail(`redact failed: ${errorMessage(error)}`);
  }
}

export const redactCommand: Command<RedactArgs> = {
  name: 'redact',
  usage: `  afr redact <bundle.zip> [--pattern RE]... [--drop-frames] --out <file> [--force]
      mask the text of every file again with today's detectors and the given patterns, write the
      result to --out and validate it; frames and the clip are copied unchanged (pixels cannot be
      re-masked) unless --drop-frames leaves them out`,
  optionsBeforeName: true,
  parse(args) {
    const read = parseCheckArgs('redact', args);
    if (typeof read === 'string') return read;
    if (read.steps !== undefined || read.json) return `${read.steps !== undefined ? '--steps' : '--json'} does not apply to redact`;
    if (read.out === undefined) return 'redact needs --out <file>: afr redact <bundle.zip> --out <redacted.zip>';
    return { name: 'redact', file: read.file, out: read.out, patterns: read.patterns, dropFrames: read.dropFrames, force: read.force };
  },
  run: runRedact,
};

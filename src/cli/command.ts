import type { BundleJsonSchemas } from './bundle-json-schemas';
import type { FleetStore } from './fleet';
import type { ReproBrowser, ReproBrowserOptions } from './repro-browser';
import type { StagedFile } from './staged-file';
import type { ExpectedViewer } from './viewer-check';

/** What the command line touches outside itself; `node-io.ts` has the real one. */
export interface CliIo {
  readFile(path: string): Promise<Uint8Array>;
  /** Writes a new file; rejects with code `EEXIST` when `path` exists, unless `overwrite`. */
  writeFile(path: string, bytes: Uint8Array, overwrite: boolean): Promise<void>;
  /** Whether two paths name the same existing file (false when either does not exist). */
  sameFile(a: string, b: string): Promise<boolean>;
  /** This afr's version (`package.json`). */
  version(): string;
  now(): Date;
  loadSchemas(): BundleJsonSchemas;
  /** This version's viewer, to check a bundle's `viewer.html` against (asked only when there is one). */
  loadViewer(): Promise<ExpectedViewer>;
  stdout(text: string): void;
  stderr(text: string): void;
  /** Whether stderr is a terminal: a progress line is drawn only there (never into a log or a pipe). */
  stderrIsTerminal?(): boolean;
  /** How a person runs `afr` again where they are, for the hints (`command-name.ts`); `afr` when absent. */
  commandName?(): string;
  /** The bucket for `ls` and `pull` (the AWS SDK's standard chain); absent where none is wired. */
  fleetStore?(): Promise<FleetStore>;
  /** The environment (`CHROME_PATH`, a withheld field's `AFR_<FIELD>` for `afr repro --run`); absent: none. */
  env?(): Readonly<Record<string, string | undefined>>;
  /** A Chromium to replay a bundle in (`afr repro --run`, `repro-browser.ts`); absent where none can run. */
  launchReproBrowser?(options: ReproBrowserOptions): Promise<ReproBrowser>;
  /** A hidden temporary file in `dir`, kept under a name only once checked (`pull`); absent where none can be made. */
  stageFile?(dir: string): Promise<StagedFile>;
}

/**
 * Where `afr` prints (`main.ts`), the only way to stdout and stderr. It takes lines, not text: each line
 * is escaped whole on the way (`safe-text.ts`), a line break inside one shown as `\n`, so the only line
 * breaks in the output are the ones between the lines given. No field, however it was formatted, can
 * start a line of its own.
 */
export interface Printer {
  /** Lines on stdout, each escaped and ended with a line break. */
  out(lines: readonly string[]): void;
  /** Lines on stderr, each escaped and ended with a line break. */
  err(lines: readonly string[]): void;
  /**
   * One line of progress on stderr, redrawn in place, only when stderr is a terminal; null clears it.
   * Escaped like every line.
   */
  progress(line: string | null): void;
  /** `value` as JSON on stdout (`terminalJson`: valid JSON with no raw control, bidi or separator character). */
  json(value: unknown): void;
}

export const EXIT_OK = 0;
/** The file is not a bundle, or not a valid one; for `redact`, `ls` and `pull`, any failure. */
export const EXIT_INVALID = 1;
/** Bad arguments, or a file that cannot be read. */
export const EXIT_USAGE = 2;
export type ExitCode = typeof EXIT_OK | typeof EXIT_INVALID | typeof EXIT_USAGE;

/**
 * One `afr` command: its name, its lines in `afr --help`, how it reads the words after its name and
 * what it does with them. `main.ts` holds the table of them.
 */
export interface Command<Args = unknown> {
  readonly name: string;
  /** Its lines under "Usage:" in `afr --help` (commands sharing one entry share the text). */
  readonly usage: string;
  /** Reads the arguments after the command's name (`parse-options.ts`); a string is a usage error. */
  parse(args: readonly string[]): Args | string;
  run(args: Args, io: CliIo, print: Printer): Promise<ExitCode>;
  /** A usage error is one line pointing to `--help` (the commands agents call), not the whole usage. */
  readonly briefErrors?: true;
  /** Its options may come before its name too (`afr --json inspect b.zip`): `check-options.ts`. */
  readonly optionsBeforeName?: true;
}

import { DEFAULT_DOM_OPTIONS, readDom } from '../reads/dom-outline';
import { BundleReadError } from '../reads/errors';
import { DEFAULT_FRAME_OPTIONS, readFrame, type FramePick } from '../reads/frames';
import type { PngEncoder } from '../reads/image';
import { openBundle, type BundleReader } from '../reads/open-bundle';
import { pageRequest } from '../reads/paging';
import { consoleText, domText, errorsText, frameText, requestsText, stepText, stepsText, summaryText, type Asker, type ReadName } from '../reads/render-text';
import { listConsole, listRequests, readErrors } from '../reads/signals';
import { listSteps, readStep } from '../reads/steps';
import { readSummary } from '../reads/summary';
import type { CliIo } from './main';
import { describeReadError } from './read-error';
import type { Printer } from './redact-command';
import { terminalJson } from './safe-text';

/** The verbs that read one bundle for a person or an agent (`src/reads/`). */
export const READ_VERBS = ['summary', 'steps', 'step', 'frame', 'dom', 'console', 'requests', 'errors'] as const;
export type ReadVerb = (typeof READ_VERBS)[number];
export const isReadVerb = (verb: string | undefined): verb is ReadVerb => (READ_VERBS as readonly string[]).includes(verb ?? '');

/** `afr <verb> <bundle.zip> [args]`, read. */
export interface ReadCommand {
  name: 'read';
  verb: ReadVerb;
  file: string;
  json: boolean;
  /** `step N`, `frame N`. */
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

export const READ_USAGE = `  afr summary <bundle.zip> [--json]
      the failure, what the bundle holds, the last steps, and what to read next
  afr steps <bundle.zip> [--page N] [--page-size N] [--json]
      the steps, oldest first, 20 a page, each with its frame
  afr step <bundle.zip> <N> [--json]
      step N with its target, goal, detail, the page's changes and its frame
  afr frame <bundle.zip> <N> | --at <ms> | --step <N> [--out file.png] [--width W] [--force] [--json]
      frame N (1-based) as a PNG at most W px wide (default ${DEFAULT_FRAME_OPTIONS.maxWidth}), or the frame nearest a moment
      (ms from the failure, negative before it) or a step; written to --out (default
      <bundle id>-frame-N.png in the current folder)
  afr dom <bundle.zip> [--step N] [--depth D] [--selector CSS | --node ID] [--max-nodes N] [--json]
      the outline of the page (depth ${DEFAULT_DOM_OPTIONS.depth}, ${DEFAULT_DOM_OPTIONS.maxNodes} nodes), scoped to a selector's matches or a node
  afr console|requests <bundle.zip> [--page N] [--page-size N] [--json]
      the console errors / failed requests the recorder kept, paged
  afr errors <bundle.zip> [--json]
      the failure with its stack, the signals before it, what went wrong while recording`;

const VALUE_OPTIONS: Record<string, { verbs: readonly ReadVerb[]; key: keyof ReadCommand; integer: boolean; min?: number }> = {
  '--page': { verbs: ['steps', 'console', 'requests'], key: 'page', integer: true, min: 1 },
  '--page-size': { verbs: ['steps', 'console', 'requests'], key: 'pageSize', integer: true, min: 1 },
  '--at': { verbs: ['frame'], key: 'at', integer: true },
  '--step': { verbs: ['frame', 'dom'], key: 'step', integer: true, min: 1 },
  '--out': { verbs: ['frame'], key: 'out', integer: false },
  '--width': { verbs: ['frame'], key: 'width', integer: true, min: 16 },
  '--depth': { verbs: ['dom'], key: 'depth', integer: true, min: 0 },
  '--selector': { verbs: ['dom'], key: 'selector', integer: false },
  '--node': { verbs: ['dom'], key: 'node', integer: true, min: 1 },
  '--max-nodes': { verbs: ['dom'], key: 'maxNodes', integer: true, min: 1 },
};

/** Reads the arguments after a read verb; a string is a usage error. */
export function parseReadArgs(verb: ReadVerb, args: readonly string[]): ReadCommand | string {
  const command: ReadCommand = { name: 'read', verb, file: '', json: false };
  const positionals: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (arg === '--') {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (arg === '--json') command.json = true;
    else if (arg === '--force' && verb === 'frame') command.force = true;
    else if (arg.startsWith('--')) {
      const [name, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
      const option = VALUE_OPTIONS[name];
      if (!option) return `unknown option ${name}`;
      if (!option.verbs.includes(verb)) return `${name} does not apply to ${verb}`;
      const value = inline ?? args[(i += 1)];
      if (value === undefined) return `${name} needs a value`;
      if (option.integer) {
        if (!/^-?\d+$/.test(value) || Number(value) < (option.min ?? -Infinity)) return `${name} needs a whole number${option.min !== undefined ? ` from ${option.min}` : ''} (got ${JSON.stringify(value)})`;
        (command as unknown as Record<string, unknown>)[option.key] = Number(value);
      } else (command as unknown as Record<string, unknown>)[option.key] = value;
    } else positionals.push(arg);
  }
  const [file, index, ...extra] = positionals;
  if (file === undefined) return `${verb} needs a bundle: afr ${verb} <bundle.zip>`;
  command.file = file;
  const takesIndex = verb === 'step' || verb === 'frame';
  if (extra.length > 0 || (index !== undefined && !takesIndex)) return `one bundle at a time (extra: ${[...(takesIndex ? [] : [index]), ...extra].join(' ')})`;
  if (index !== undefined) {
    if (!/^\d+$/.test(index) || Number(index) < 1) return `${verb} needs a 1-based index (got ${JSON.stringify(index)})`;
    command.index = Number(index);
  }
  if (verb === 'step' && command.index === undefined) return 'step needs an index: afr step <bundle.zip> <N>';
  if (verb === 'frame') {
    const picks = [command.index, command.at, command.step].filter((p) => p !== undefined).length;
    if (picks !== 1) return 'frame needs one of: an index N, --at <ms>, --step <N>';
  }
  if (command.selector !== undefined && command.node !== undefined) return '--selector and --node do not go together: pick one scope';
  return command;
}

/** Quotes a path for a shell line when it needs it. */
const shellWord = (word: string) => (/^[\w./:@%+=,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

/** How `afr` asks for a read: `afr steps b.zip --page 2`. */
export function cliAsker(file: string): Asker {
  return (read: ReadName, args) => {
    const { index, ...flags } = args;
    const words = ['afr', read, shellWord(file), ...(index !== undefined ? [String(index)] : [])];
    for (const [name, value] of Object.entries(flags)) words.push(`--${name}`, shellWord(String(value)));
    return words.join(' ');
  };
}

/** Runs a read verb; returns the exit status (0, 1 for a file that is not a readable bundle, 2 for bad arguments). */
export async function runRead(command: ReadCommand, io: CliIo, print: Printer, encodePng: PngEncoder): Promise<number> {
  let zip: Uint8Array;
  try {
    zip = await io.readFile(command.file);
  } catch (error) {
    print.err(`afr: ${describeReadError(command.file, error)}\n`);
    return 2;
  }
  try {
    const reader = await openBundle(zip);
    return await answer(command, reader, io, print, encodePng);
  } catch (error) {
    if (!(error instanceof BundleReadError)) throw error;
    print.err(`afr: ${command.file}: ${error.message}\n`);
    return error.kind === 'argument' ? 2 : 1;
  }
}

async function answer(command: ReadCommand, reader: BundleReader, io: CliIo, print: Printer, encodePng: PngEncoder): Promise<number> {
  const ask = cliAsker(command.file);
  const show = (view: unknown, lines: string[]) => print.out(command.json ? terminalJson(view) : `${lines.join('\n')}\n`);
  const paging = () => pageRequest(command.page, command.pageSize);
  switch (command.verb) {
    case 'summary': {
      const view = await readSummary(reader);
      show(view, summaryText(view, ask));
      return 0;
    }
    case 'steps': {
      const page = await listSteps(reader, paging());
      show(page, stepsText(page, ask));
      return 0;
    }
    case 'step': {
      const view = await readStep(reader, command.index!);
      show(view, stepText(view, ask));
      return 0;
    }
    case 'console': {
      const page = await listConsole(reader, paging());
      show(page, consoleText(page, ask));
      return 0;
    }
    case 'requests': {
      const page = await listRequests(reader, paging());
      show(page, requestsText(page, ask));
      return 0;
    }
    case 'errors': {
      const view = await readErrors(reader);
      show(view, errorsText(view, ask));
      return 0;
    }
    case 'dom': {
      const view = await readDom(reader, {
        depth: command.depth ?? DEFAULT_DOM_OPTIONS.depth,
        maxNodes: command.maxNodes ?? DEFAULT_DOM_OPTIONS.maxNodes,
        ...(command.selector !== undefined ? { selector: command.selector } : {}),
        ...(command.node !== undefined ? { node: command.node } : {}),
        ...(command.step !== undefined ? { step: command.step } : {}),
      });
      show(view, domText(view, ask));
      return 0;
    }
    case 'frame':
      return writeFrame(command, reader, io, print, encodePng);
  }
}

async function writeFrame(command: ReadCommand, reader: BundleReader, io: CliIo, print: Printer, encodePng: PngEncoder): Promise<number> {
  const pick: FramePick = command.index !== undefined ? { index: command.index } : command.at !== undefined ? { atMs: command.at } : { step: command.step! };
  const frame = await readFrame(reader, pick, { ...DEFAULT_FRAME_OPTIONS, maxWidth: command.width ?? DEFAULT_FRAME_OPTIONS.maxWidth }, encodePng);
  const out = command.out ?? `${reader.manifest.bundle_id.replace(/[^\w.-]/g, '_')}-frame-${frame.index}.png`;
  try {
    await io.writeFile(out, frame.png, command.force === true);
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    print.err(`afr: ${out}: ${code === 'EEXIST' ? 'exists (--force replaces it)' : describeReadError(out, error).slice(out.length + 2)}\n`);
    return 2;
  }
  const { png: _png, ...view } = frame;
  print.out(command.json ? terminalJson({ ...view, bytes: frame.png.byteLength, file: out }) : `${frameText(frame, out).join('\n')}\n`);
  return 0;
}

import { escapeControls } from '../shared/control-chars';

/*
 * Everything `afr` prints passes through here (`runCli` writes nothing else). A bundle may be hostile:
 * its page text can hold terminal escape sequences, bidi overrides or line breaks (see
 * `shared/control-chars.ts`). They are shown as visible escapes; the only line breaks in the output are
 * the ones the CLI puts between its lines.
 */

export { escapeControls } from '../shared/control-chars';

/** Lines for the terminal: each one escaped (a line break inside a line is shown as `\n`), then joined. */
export function terminalText(lines: readonly string[]): string {
  return lines.map((line) => `${escapeControls(line)}\n`).join('');
}

/** A progress line drawn over the last one (carriage return, erase the line), or the line erased when null. */
export function terminalProgress(line: string | null): string {
  return `\r\x1b[2K${line === null ? '' : escapeControls(line)}`;
}

/**
 * What `JSON.stringify` leaves raw: DEL, C1, format characters and separators. (It escapes every C0
 * control inside strings itself, so the C0 characters left are the indentation's line breaks.)
 */
const UNSAFE_IN_JSON = /[\x7f-\x9f\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;

/** `\u202e`; a character outside the BMP (tags, U+E0041) as its surrogate pair, JSON's only spelling. */
function jsonEscape(char: string): string {
  let out = '';
  for (let i = 0; i < char.length; i += 1) out += `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}

/**
 * JSON for `--json`: `JSON.stringify` escapes C0 controls, but leaves C1 controls, bidi and other format
 * characters raw, and a terminal acts on them when the JSON is printed. They can only occur inside JSON
 * strings, so escaping them as `\uXXXX` keeps the document valid and its values the same.
 */
export function terminalJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2).replace(UNSAFE_IN_JSON, jsonEscape)}\n`;
}

/**
 * An unexpected error as lines for stderr: `prefix: Name: message` (one line once printed, whatever
 * the message quotes), then the stack's own frames, taken after the message so a message cannot add one.
 */
export function errorLines(prefix: string, error: unknown): string[] {
  if (!(error instanceof Error)) return [`${prefix}: ${String(error)}`];
  const head = `${error.name}: ${error.message}`;
  const frames = error.stack?.startsWith(head) ? error.stack.slice(head.length).split('\n').filter((line) => line.trim() !== '') : [];
  return [`${prefix}: ${head}`, ...frames];
}

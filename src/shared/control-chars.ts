/*
 * Text from a bundle is page text, and a page can put anything in it: terminal escape sequences (ESC [2J
 * clears the screen, OSC 0 sets the window title, U+009B is the one-byte CSI of C1), bidi overrides that
 * make a line read backwards, zero-width characters, line breaks that forge a line. Readers that print
 * or paste such text (the command line, summary.md) show those characters as visible escapes instead.
 */

/**
 * Characters that are not shown as themselves: C0 controls and DEL (`Cc`), C1 controls (also `Cc`),
 * format characters (`Cf`: bidi embeddings, overrides and isolates, zero-width characters, the BOM,
 * the soft hyphen), line and paragraph separators (`Zl`, `Zp`) and lone surrogates (`Cs`).
 */
export const CONTROL_CHARS = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;

const SHORT: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** The visible spelling of one character: `\n`, `\x1b` (C0, DEL), `\u009b`, `\u202e`, `\u{e0041}`. */
function visible(char: string): string {
  const short = SHORT[char];
  if (short) return short;
  const code = char.codePointAt(0) ?? 0;
  if (code < 0x80) return `\\x${code.toString(16).padStart(2, '0')}`;
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * `text` with every control, format and separator character shown as an escape: safe to print on one
 * line of a terminal, whatever it held.
 * @example escapeControls('\x1b]0;pwned\x07') // '\\x1b]0;pwned\\x07'
 */
export function escapeControls(text: string): string {
  return text.replace(CONTROL_CHARS, visible);
}

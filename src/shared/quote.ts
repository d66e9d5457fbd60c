import { escapeControls } from './control-chars';

/** Longest page string a read shows whole; the rest is counted. */
export const MAX_QUOTED_CHARS = 300;

/**
 * A page-sourced string as data: in double quotes, its quotes and controls escaped (JSON's spelling,
 * then bidi, format and separator characters made visible), cut to `max` characters with the rest
 * counted. A page cannot close the quote, forge a line or pass for the reader's own words.
 * @example quote('Ignore previous instructions\n') // '"Ignore previous instructions\\n"'
 */
export function quote(text: string, max: number = MAX_QUOTED_CHARS): string {
  // By code points, so a cut never splits a surrogate pair into a lone half.
  const chars = Array.from(text);
  const rest = chars.length - max;
  const shown = rest > 0 ? chars.slice(0, max).join('') : text;
  return `${escapeControls(JSON.stringify(shown))}${rest > 0 ? `…(+${rest} chars)` : ''}`;
}

/** `quote` for a string that may be absent: `-` for null or undefined. */
export const quoteOrDash = (text: string | null | undefined, max?: number): string => (text == null ? '-' : quote(text, max));

/** A word the format fixes (`click`, `observer`, `http_5xx`) as it is; anything else quoted as data. */
export function token(text: string): string {
  return /^[\w.:/-]{1,40}$/.test(text) ? text : quote(text, 60);
}

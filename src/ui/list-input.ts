/** `comma-or-line`: `a, b` or one per line; `line`: one per line only (regexes and selectors contain commas). */
export type ListSplit = 'comma-or-line' | 'line';

/** The items of a list typed into a text field: trimmed, empty ones dropped. */
export function parseList(text: string, split: ListSplit): string[] {
  return text
    .split(split === 'line' ? /\r?\n/ : /[,\r\n]/)
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}

/** A list as text for its field: one per line in a text area, comma-separated on one line. */
export function formatList(items: readonly (string | number)[], multiline: boolean): string {
  return items.join(multiline ? '\n' : ', ');
}

import type { DiffNode, TimelineDiff } from '../../../schemas/timeline';
import { isNotable } from './diff';

/** Most phrases in one description; the rest are counted. */
const MAX_PHRASES = 6;

function article(word: string): string {
  return /^[aeiou]/i.test(word) || /^h[1-6]$/.test(word) ? 'an' : 'a';
}

const quote = (label: string | undefined): string => (label ? ` '${label}'` : '');

/** "the form", "an h1 'Internal Server Error'", "a button 'Pay'". */
function thing(n: { tag: string; role?: string; label?: string }, definite: boolean): string {
  const kind = n.tag === 'div' || n.tag === 'span' ? (n.role ?? n.tag) : n.tag;
  if (definite && (kind === 'form' || kind === 'dialog' || kind === 'table')) return `the ${kind}${quote(n.label)}`;
  return `${definite ? 'the' : article(kind)} ${kind}${quote(n.label)}`;
}

/** What a reader should hear about a subtree: itself when notable or small, else its notable parts. */
function subtree(n: DiffNode, definite: boolean): string {
  if (isNotable(n)) return thing(n, definite);
  if (n.notable?.length) return n.notable.map((x) => thing(x, definite)).join(' and ');
  const size = n.size > 1 ? ` (${n.size} elements)` : '';
  return `${thing(n, definite)}${size}`;
}

/**
 * The diff in plain words, for people and models.
 * @example describeDiff(diff) // "the form disappeared, an h1 'Internal Server Error' appeared"
 */
export function describeDiff(diff: TimelineDiff): string {
  const phrases: string[] = [];
  if (diff.new_document) phrases.push(`a new page loaded${diff.url ? ` (${diff.url.to})` : ''}`);
  else if (diff.url) phrases.push(`the address changed to ${diff.url.to}`);
  for (const n of diff.removed) phrases.push(`${subtree(n, true)} disappeared`);
  for (const n of diff.added) phrases.push(`${subtree(n, false)} appeared`);
  for (const t of diff.text) phrases.push(`the text of ${thing(t, true)} changed from '${t.from}' to '${t.to}'`);
  for (const v of diff.values) {
    const field = thing(v, true);
    if (v.redacted) phrases.push(`${field} changed (value withheld)`);
    else if (typeof v.to === 'boolean') phrases.push(`${field} was ${v.to ? 'checked' : 'unchecked'}`);
    else phrases.push(`${field} changed from '${v.from ?? ''}' to '${v.to ?? ''}'`);
  }
  for (const a of diff.attributes) {
    const el = thing(a, true);
    if (a.to === null) phrases.push(`${el} lost ${a.attribute}`);
    else if (a.from === null) phrases.push(`${el} got ${a.attribute}${a.to ? `='${a.to}'` : ''}`);
    else phrases.push(`${el} ${a.attribute} changed to '${a.to}'`);
  }
  if (!phrases.length) return 'nothing changed';
  const shown = phrases.slice(0, MAX_PHRASES);
  const rest = phrases.length - shown.length;
  return rest > 0 ? `${shown.join(', ')}, and ${rest} more change${rest > 1 ? 's' : ''}` : shown.join(', ');
}

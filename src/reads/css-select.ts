import type { SnapshotNode } from '../../schemas/snapshot';
import { BundleReadError } from './errors';

/*
 * The CSS selectors `afr dom` and `get_dom` scope an outline with, matched against snapshot nodes (not a
 * live DOM): type, `#id`, `.class`, `[attr]`, `[attr=value]` (also `^=`, `$=`, `*=`), `*`, joined by
 * descendant (space) and child (`>`) combinators, in comma-separated lists. Anything else is refused
 * with one line rather than matched wrongly.
 */

interface Compound {
  tag: string | null;
  ids: string[];
  classes: string[];
  attributes: { name: string; op: '' | '=' | '^=' | '$=' | '*='; value: string }[];
}
type Combinator = ' ' | '>';
/** A complex selector, right to left: the subject first, each with the combinator to the compound left of it. */
type Complex = { compound: Compound; combinator: Combinator | null }[];

const IDENT = /^-?[_a-zA-Z\u00a0-\uffff][\w\u00a0-\uffff-]*/;

function parseCompound(text: string, selector: string): { compound: Compound; rest: string } {
  const compound: Compound = { tag: null, ids: [], classes: [], attributes: [] };
  let rest = text;
  const tag = /^(\*|[a-zA-Z][\w-]*)/.exec(rest);
  if (tag) {
    compound.tag = tag[1] === '*' ? null : tag[1]!.toLowerCase();
    rest = rest.slice(tag[0].length);
  }
  let parsed = tag !== null;
  for (;;) {
    const c = rest[0];
    if (c === '#' || c === '.') {
      const ident = IDENT.exec(rest.slice(1));
      if (!ident) break;
      (c === '#' ? compound.ids : compound.classes).push(ident[0]);
      rest = rest.slice(1 + ident[0].length);
    } else if (c === '[') {
      const attr = /^\[\s*([\w:-]+)\s*(?:([\^$*]?=)\s*(?:"([^"]*)"|'([^']*)'|([^\]\s"']+))\s*)?\]/.exec(rest);
      if (!attr) throw new BundleReadError(`unsupported selector ${JSON.stringify(selector)}: cannot read ${JSON.stringify(rest.slice(0, 30))}`, 'argument');
      compound.attributes.push({ name: attr[1]!.toLowerCase(), op: (attr[2] ?? '') as Compound['attributes'][number]['op'], value: attr[3] ?? attr[4] ?? attr[5] ?? '' });
      rest = rest.slice(attr[0].length);
    } else break;
    parsed = true;
  }
  if (!parsed) throw new BundleReadError(`unsupported selector ${JSON.stringify(selector)}: cannot read ${JSON.stringify(rest.slice(0, 30))}`, 'argument');
  return { compound, rest };
}

/** Parses a selector list; throws `BundleReadError` (argument) for what this subset does not read. */
export function parseSelector(selector: string): Complex[] {
  if (selector.trim() === '' || selector.length > 500) throw new BundleReadError('a selector must be 1 to 500 characters', 'argument');
  return selector.split(',').map((part) => {
    const steps: { compound: Compound; combinator: Combinator | null }[] = [];
    let rest = part.trim();
    let combinator: Combinator | null = null;
    while (rest !== '') {
      const { compound, rest: after } = parseCompound(rest, selector);
      steps.push({ compound, combinator });
      const next = /^\s*(>)\s*|^\s+/.exec(after);
      rest = next ? after.slice(next[0].length) : after;
      if (!next && rest !== '') throw new BundleReadError(`unsupported selector ${JSON.stringify(selector)}: cannot read ${JSON.stringify(rest.slice(0, 30))}`, 'argument');
      combinator = next?.[1] === '>' ? '>' : ' ';
    }
    if (steps.length === 0) throw new BundleReadError(`unsupported selector ${JSON.stringify(selector)}: an empty part`, 'argument');
    // Stored right to left: the subject first; each step's combinator joins it to the next one stored.
    return steps.reverse();
  });
}

function matchesCompound(node: SnapshotNode, c: Compound): boolean {
  if (c.tag !== null && node.tag.toLowerCase() !== c.tag) return false;
  const attrs = node.attributes ?? {};
  if (c.ids.some((id) => attrs.id !== id)) return false;
  const classes = (attrs.class ?? '').split(/\s+/);
  if (c.classes.some((cls) => !classes.includes(cls))) return false;
  return c.attributes.every(({ name, op, value }) => {
    const actual = attrs[name];
    if (actual === undefined) return false;
    if (op === '=') return actual === value;
    if (op === '^=') return value !== '' && actual.startsWith(value);
    if (op === '$=') return value !== '' && actual.endsWith(value);
    if (op === '*=') return value !== '' && actual.includes(value);
    return true;
  });
}

/** Whether `node`, under `ancestors` (root first), matches one of `selectors`. */
export function matchesSelector(selectors: readonly Complex[], node: SnapshotNode, ancestors: readonly SnapshotNode[]): boolean {
  return selectors.some((complex) => {
    const matchFrom = (step: number, at: number): boolean => {
      const { combinator } = complex[step - 1]!;
      const next = complex[step];
      if (!next) return true;
      if (combinator === '>') return at >= 0 && matchesCompound(ancestors[at]!, next.compound) && matchFrom(step + 1, at - 1);
      for (let i = at; i >= 0; i -= 1) if (matchesCompound(ancestors[i]!, next.compound) && matchFrom(step + 1, i - 1)) return true;
      return false;
    };
    return matchesCompound(node, complex[0]!.compound) && matchFrom(1, ancestors.length - 1);
  });
}

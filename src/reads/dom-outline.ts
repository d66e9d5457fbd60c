import type { SnapshotNode } from '../../schemas/snapshot';
import { SNAPSHOT_FILE } from '../bundle-format/file-names';
import { parseSelector, matchesSelector } from './css-select';
import { quote, token } from '../shared/quote';
import { BundleReadError } from './errors';
import type { BundleReader } from './open-bundle';

/** What part of the page to outline, and how much of it. */
export interface DomOptions {
  /** Levels below each outlined root (0: the root alone). Default 6. */
  depth: number;
  /** Only the subtrees of the nodes matching this CSS selector (`css-select.ts` says which selectors). */
  selector?: string;
  /** Only the subtree of this node (the `[id]` an outline prints). */
  node?: number;
  /** The page at this step (1-based): its own page (`snapshots/`), its target marked; without one, the page at the failure with a note. */
  step?: number;
  /** Most nodes listed; the rest are counted. Default 200. */
  maxNodes: number;
}

export const DEFAULT_DOM_OPTIONS: DomOptions = { depth: 6, maxNodes: 200 };
/** Deepest `depth` and most `maxNodes` asked for: a larger outline is no longer a summary. */
export const MAX_DOM_DEPTH = 64;
export const MAX_DOM_NODES = 2000;

/** One element of the outline. `id` is its position in the snapshot, depth first from 1: stable for a bundle. */
export interface OutlineNode {
  id: number;
  /** Levels below the outlined root. */
  depth: number;
  tag: string;
  role: string | null;
  name: string | null;
  text: string | null;
  attributes: Record<string, string>;
  value: string | null;
  /** Why the value is withheld (`password`…); null when it is not. */
  redacted: string | null;
  checked: boolean | null;
  shadow_root: boolean;
  frame: string | null;
  children: number;
  /** Elements below it left out by `depth` (its whole subtree below the cut). */
  hidden_below: number;
  /** The element the step's action hit (with `step`, on the step's own page). */
  target: boolean;
}

export interface DomView {
  /** The file the page comes from: `snapshot.json` (the failure) or the step's page (`snapshots/page-003.json`). */
  source: string;
  url: string;
  title: string;
  node_count: number;
  /** The recorder stopped the snapshot at its node cap. */
  truncated: boolean;
  step: number | null;
  /** Something the reader must know about what is shown (the page is the failure's, not the step's). */
  note: string | null;
  scope: string | null;
  /** Roots outlined: 1 for the whole page or a node, the matches for a selector. */
  roots: number;
  nodes: OutlineNode[];
  /** Elements in scope and within `depth` that `maxNodes` left out. */
  omitted: number;
  /** The outline id of the step's target on its page; null when there is none or it is not on the page. */
  target: number | null;
}

/** The page an outline walks: the failure's (`snapshot.json`) or a step's (its timeline nodes carry an `id`). */
interface OutlinedPage {
  source: string;
  url: string;
  title: string;
  node_count: number;
  truncated: boolean;
  root: SnapshotNode & { id?: number };
  /** The timeline id of the step's target on this page. */
  targetId?: number;
}

/** The page at step `index` (1-based): its own page when the bundle has it, else null and why. */
async function stepPageOf(reader: BundleReader, index: number): Promise<{ page: OutlinedPage | null; note: string | null }> {
  const steps = await reader.steps();
  if (!Number.isInteger(index) || index < 1 || index > steps.length) {
    throw new BundleReadError(`step ${index} is out of range: the bundle has ${steps.length} step${steps.length === 1 ? '' : 's'} (1 to ${steps.length})`, 'argument');
  }
  const step = steps[index - 1]!;
  const name = typeof step.snapshot === 'string' ? step.snapshot : null;
  const file = name ? await reader.stepPage(name) : null;
  if (!name || !file) {
    const why = name ? `its page ${token(name)} is not in the bundle` : 'the bundle holds no page of its own for it';
    return { page: null, note: index === steps.length ? null : `step ${index}: ${why}; this is the page at the failure (snapshot.json)` };
  }
  const target = step.target !== null && typeof step.target === 'object' && typeof step.target.node === 'number' ? step.target.node : undefined;
  const { url, title, node_count, truncated, root } = file.snapshot;
  return { page: { source: name, url, title, node_count, truncated, root, targetId: target }, note: null };
}

/** The page at the failure, `snapshot.json`; throws when the bundle has none. */
async function failurePage(reader: BundleReader): Promise<OutlinedPage> {
  const file = await reader.snapshot();
  if (!file) throw new BundleReadError('the bundle has no snapshot.json (its capture level leaves the page out)', 'argument');
  if (!file.snapshot) throw new BundleReadError(`the bundle has no page snapshot: ${quote(file.error ?? 'no reason given')}`, 'argument');
  const { url, title, node_count, truncated, root } = file.snapshot;
  return { source: SNAPSHOT_FILE, url, title, node_count, truncated, root };
}

interface Indexed {
  node: SnapshotNode;
  id: number;
  /** The parent's entry; null for the root. */
  parent: Indexed | null;
}

/** Every node with its depth-first id and its parent. Iterative: a deep page cannot overflow the stack. */
function indexNodes(root: SnapshotNode): Indexed[] {
  const out: Indexed[] = [];
  const stack: { node: SnapshotNode; parent: Indexed | null }[] = [{ node: root, parent: null }];
  while (stack.length > 0) {
    const { node, parent } = stack.pop()!;
    const entry = { node, id: out.length + 1, parent };
    out.push(entry);
    const children = node.children ?? [];
    for (let i = children.length - 1; i >= 0; i -= 1) stack.push({ node: children[i]!, parent: entry });
  }
  return out;
}

/** The nodes above `entry`, root first. */
function ancestorsOf(entry: Indexed): SnapshotNode[] {
  const out: SnapshotNode[] = [];
  for (let at = entry.parent; at; at = at.parent) out.push(at.node);
  return out.reverse();
}

const subtreeSize = (node: SnapshotNode): number => {
  let size = 0;
  const stack = [node];
  while (stack.length > 0) {
    const next = stack.pop()!;
    size += 1;
    stack.push(...(next.children ?? []));
  }
  return size;
};

/** The options of a DOM read as asked (the CLI's flags, an MCP tool's arguments): the defaults where none was given. */
export function domOptions(asked: { depth?: number | undefined; maxNodes?: number | undefined; selector?: string | undefined; node?: number | undefined; step?: number | undefined }): DomOptions {
  return {
    depth: asked.depth ?? DEFAULT_DOM_OPTIONS.depth,
    maxNodes: asked.maxNodes ?? DEFAULT_DOM_OPTIONS.maxNodes,
    ...(asked.selector !== undefined ? { selector: asked.selector } : {}),
    ...(asked.node !== undefined ? { node: asked.node } : {}),
    ...(asked.step !== undefined ? { step: asked.step } : {}),
  };
}

/**
 * The outline of the page in the bundle: each element on a line with its tag, role, accessible name,
 * text, attributes and value state, to `depth` levels and `maxNodes` nodes, scoped to a selector or a
 * node. Reads `snapshot.json` (the page at the failure) or, with `step`, that step's own page. Throws `BundleReadError` when the bundle has no
 * page snapshot, or the scope matches nothing.
 */
export async function readDom(reader: BundleReader, options: DomOptions): Promise<DomView> {
  if (!Number.isInteger(options.depth) || options.depth < 0 || options.depth > MAX_DOM_DEPTH) throw new BundleReadError(`depth must be a whole number from 0 to ${MAX_DOM_DEPTH}`, 'argument');
  if (!Number.isInteger(options.maxNodes) || options.maxNodes < 1 || options.maxNodes > MAX_DOM_NODES) throw new BundleReadError(`the node limit must be from 1 to ${MAX_DOM_NODES}`, 'argument');
  if (options.selector !== undefined && options.node !== undefined) throw new BundleReadError('scope with a selector or a node id, not both', 'argument');
  let note: string | null = null;
  let page: OutlinedPage | null = null;
  if (options.step !== undefined) ({ page, note } = await stepPageOf(reader, options.step));
  page ??= await failurePage(reader);
  const all = indexNodes(page.root);
  const targetEntry = page.targetId === undefined ? undefined : all.find((entry) => (entry.node as { id?: number }).id === page.targetId);

  let roots: Indexed[] = [all[0]!];
  let scope: string | null = null;
  if (options.node !== undefined) {
    const found = Number.isInteger(options.node) ? all[options.node - 1] : undefined;
    if (!found) throw new BundleReadError(`node ${options.node} is out of range: the outline numbers ${all.length} nodes (1 to ${all.length})`, 'argument');
    roots = [found];
    scope = `node ${options.node}`;
  } else if (options.selector !== undefined) {
    const selectors = parseSelector(options.selector);
    const matches = all.filter((entry) => matchesSelector(selectors, entry.node, ancestorsOf(entry)));
    if (matches.length === 0) throw new BundleReadError(`no element matches ${JSON.stringify(options.selector)}`, 'argument');
    // A match inside another match is outlined as part of it.
    const inside = new Set(matches.map((m) => m.node));
    roots = matches.filter((m) => !ancestorsOf(m).some((a) => inside.has(a)));
    scope = options.selector;
  }

  const ids = new Map(all.map((entry) => [entry.node, entry.id]));
  const nodes: OutlineNode[] = [];
  let omitted = 0;
  for (const root of roots) {
    const stack: { node: SnapshotNode; depth: number }[] = [{ node: root.node, depth: 0 }];
    while (stack.length > 0) {
      const { node, depth } = stack.pop()!;
      const children = node.children ?? [];
      if (nodes.length >= options.maxNodes) {
        omitted += 1;
      } else {
        nodes.push(outlineNode(node, ids.get(node)!, depth, depth >= options.depth ? subtreeSize(node) - 1 : 0, node === targetEntry?.node));
      }
      if (depth < options.depth) for (let i = children.length - 1; i >= 0; i -= 1) stack.push({ node: children[i]!, depth: depth + 1 });
    }
  }
  const { source, url, title, node_count, truncated } = page;
  return { source, url, title, node_count, truncated, step: options.step ?? null, note, scope, roots: roots.length, nodes, omitted, target: targetEntry?.id ?? null };
}

function outlineNode(node: SnapshotNode, id: number, depth: number, hiddenBelow: number, target: boolean): OutlineNode {
  return {
    id,
    depth,
    tag: node.tag,
    role: node.role ?? null,
    name: node.name ?? null,
    text: node.text ?? null,
    attributes: node.attributes ?? {},
    // A withheld value is null in a snapshot the recorder wrote; an edited bundle's is not shown either.
    value: node.value_redacted ? null : (node.value ?? null),
    redacted: node.value_redacted ? (node.redaction_kind ?? 'redacted') : null,
    checked: node.checked ?? null,
    shadow_root: node.shadow_root === true,
    frame: node.frame ?? null,
    children: node.children?.length ?? 0,
    hidden_below: hiddenBelow,
    target,
  };
}

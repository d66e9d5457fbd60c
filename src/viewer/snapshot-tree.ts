import type { Rect, SnapshotNode } from '../../schemas/snapshot';
import type { TimelineNode } from '../../schemas/timeline';
import { h } from './dom';

/** Levels opened when the tree first shows; deeper nodes render when opened. */
const OPEN_DEPTH = 3;

/**
 * An element of either tree the viewer shows: `snapshot.json`'s (with rects) or a step's page from
 * `snapshots/` (with the timeline's node ids). Both carry the same fields otherwise.
 */
export type TreeNode = (SnapshotNode | TimelineNode) & { id?: number; rect?: Rect; children?: TreeNode[] };

/** Renders a closed node's children on demand (kept beside the element, never on it). */
const lazyChildren = new WeakMap<Element, () => void>();

/** Whether a node or anything under it had its value withheld (those paths start open). */
function redactedBelow(node: TreeNode, memo: Map<TreeNode, boolean>): boolean {
  let known = memo.get(node);
  if (known === undefined) {
    known = node.value_redacted === true || (node.children ?? []).some((c) => redactedBelow(c, memo));
    memo.set(node, known);
  }
  return known;
}

/** The nodes from the root down to the node with timeline id `id` (both included); empty when no node has it. */
export function pathToNode(root: TreeNode, id: number): TreeNode[] {
  // Iterative: a page's tree may be deeper than the call stack allows.
  const stack: { node: TreeNode; depth: number }[] = [{ node: root, depth: 0 }];
  const path: TreeNode[] = [];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    path.length = depth;
    path.push(node);
    if (node.id === id) return path;
    const children = node.children ?? [];
    for (let i = children.length - 1; i >= 0; i--) stack.push({ node: children[i]!, depth: depth + 1 });
  }
  return [];
}

/** One line describing an element: `<input>` role, name, attributes, value, badges, text, rect. */
function describeNode(node: TreeNode, isTarget: boolean): HTMLElement {
  const attributes = Object.entries(node.attributes ?? {}).map(([name, value]) =>
    h('span', { className: 'afr-attr' }, h('span', { className: 'afr-attr-name' }, name), '=', h('span', { className: 'afr-attr-value' }, JSON.stringify(value))),
  );
  const rect = node.rect ? `${Math.round(node.rect.x)},${Math.round(node.rect.y)} ${Math.round(node.rect.width)}\u00D7${Math.round(node.rect.height)}` : null;
  return h(
    'span',
    { className: `afr-node-line${isTarget ? ' afr-target' : ''}`, data: isTarget ? { testid: 'target-node' } : {} },
    isTarget ? h('span', { className: 'afr-badge afr-target-badge', title: "the element this step acted on" }, 'target') : null,
    h('span', { className: 'afr-tag' }, `<${node.tag}>`),
    node.role ? h('span', { className: 'afr-badge afr-role', title: 'role' }, node.role) : null,
    node.name ? h('span', { className: 'afr-node-name', title: 'accessible name' }, `"${node.name}"`) : null,
    ...attributes,
    typeof node.value === 'string' ? h('span', { className: 'afr-node-value', title: 'form value' }, `value=${JSON.stringify(node.value)}`) : null,
    node.value_redacted ? h('span', { className: 'afr-badge afr-redacted', title: 'the value was withheld by redaction', data: { testid: 'redacted' } }, `redacted: ${node.redaction_kind ?? 'value'}`) : null,
    node.checked === undefined ? null : h('span', { className: 'afr-badge' }, node.checked ? 'checked' : 'unchecked'),
    node.shadow_root ? h('span', { className: 'afr-badge afr-structure' }, '#shadow-root') : null,
    node.frame ? h('span', { className: 'afr-badge afr-structure' }, `${node.frame} frame`) : null,
    node.text ? h('span', { className: 'afr-node-text', title: 'visible text' }, node.text) : null,
    rect === null ? null : h('span', { className: 'afr-rect', title: 'bounding box: x,y width\u00D7height' }, rect),
  );
}

interface RenderContext {
  memo: Map<TreeNode, boolean>;
  /** The nodes on the way to the target: rendered open whatever their depth. */
  onPath: Set<TreeNode>;
  target: TreeNode | null;
  /** Set when the target's line is rendered. */
  targetLine: HTMLElement | null;
}

/** A node: a leaf line, or a `<details>` whose children render the first time it opens. */
function renderNode(node: TreeNode, depth: number, context: RenderContext): HTMLElement {
  const children = node.children ?? [];
  const line = describeNode(node, node === context.target);
  if (node === context.target) context.targetLine = line;
  if (children.length === 0) return h('div', { className: 'afr-node afr-leaf' }, line);
  const details = h('details', { className: 'afr-node' }, h('summary', null, line, h('span', { className: 'afr-child-count' }, String(children.length))));
  const body = h('div', { className: 'afr-children' });
  details.appendChild(body);
  let rendered = false;
  const renderChildren = () => {
    if (rendered) return;
    rendered = true;
    for (const child of children) body.appendChild(renderNode(child, depth + 1, context));
  };
  lazyChildren.set(details, renderChildren);
  details.addEventListener('toggle', () => {
    if (details.open) renderChildren();
  });
  if (depth < OPEN_DEPTH || context.onPath.has(node) || redactedBelow(node, context.memo)) {
    renderChildren();
    details.open = true;
  }
  return details;
}

/** Opens every node (rendering the ones not yet rendered) or closes them all. */
function setAllOpen(root: HTMLElement, open: boolean): void {
  // Rendering children adds new <details>, so keep going until a pass finds nothing closed.
  for (;;) {
    const pending = [...root.querySelectorAll('details')].filter((d) => d.open !== open);
    if (pending.length === 0) return;
    for (const d of pending) {
      if (open) lazyChildren.get(d)?.();
      d.open = open;
    }
    if (!open) return;
  }
}

export interface RenderedTree {
  element: HTMLElement;
  /** The target's line, or null when the tree has no target (or no node with its id). */
  targetLine: HTMLElement | null;
  /** "expand all" / "collapse all" for this tree. */
  buttons: HTMLElement[];
  /** Scrolls the tree (never the page) so that the target's line shows, a third of the way down. */
  revealTarget(): void;
}

/**
 * The page as a collapsible tree, redacted fields marked. With `targetId`, the node with that
 * timeline id is marked as the target and the path down to it is open.
 */
export function renderTree(root: TreeNode, targetId?: number): RenderedTree {
  const path = targetId === undefined ? [] : pathToNode(root, targetId);
  const context: RenderContext = { memo: new Map(), onPath: new Set(path.slice(0, -1)), target: path.at(-1) ?? null, targetLine: null };
  const element = h('div', { className: 'afr-tree', data: { testid: 'dom-tree' } }, renderNode(root, 0, context));
  const button = (label: string, open: boolean) => h('button', { className: 'afr-small', attrs: { type: 'button' }, on: { click: () => setAllOpen(element, open) } }, label);
  return {
    element,
    targetLine: context.targetLine,
    buttons: [button('expand all', true), button('collapse all', false)],
    revealTarget() {
      const line = context.targetLine;
      if (!line?.isConnected) return;
      // scrollIntoView would scroll the whole document too; move only the tree's own scroll box.
      const offset = line.getBoundingClientRect().top - element.getBoundingClientRect().top;
      if (offset < 0 || offset + line.offsetHeight > element.clientHeight) element.scrollTop = Math.max(0, element.scrollTop + offset - element.clientHeight / 3);
    },
  };
}

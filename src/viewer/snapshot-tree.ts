import type { SnapshotFile, SnapshotNode } from '../../schemas/snapshot';
import { h } from './dom';
import { formatDateTime } from './format';

/** Levels opened when the tree first shows; deeper nodes render when opened. */
const OPEN_DEPTH = 3;

/** Renders a closed node's children on demand (kept beside the element, never on it). */
const lazyChildren = new WeakMap<Element, () => void>();

/** Whether a node or anything under it had its value withheld (those paths start open). */
function redactedBelow(node: SnapshotNode, memo: Map<SnapshotNode, boolean>): boolean {
  let known = memo.get(node);
  if (known === undefined) {
    known = node.value_redacted === true || (node.children ?? []).some((c) => redactedBelow(c, memo));
    memo.set(node, known);
  }
  return known;
}

/** One line describing an element: `<input>` role, name, attributes, value, badges, text, rect. */
function describeNode(node: SnapshotNode): HTMLElement {
  const attributes = Object.entries(node.attributes ?? {}).map(([name, value]) =>
    h('span', { className: 'afr-attr' }, h('span', { className: 'afr-attr-name' }, name), '=', h('span', { className: 'afr-attr-value' }, JSON.stringify(value))),
  );
  const rect = node.rect ? `${Math.round(node.rect.x)},${Math.round(node.rect.y)} ${Math.round(node.rect.width)}\u00D7${Math.round(node.rect.height)}` : null;
  return h(
    'span',
    { className: 'afr-node-line' },
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

/** A node: a leaf line, or a `<details>` whose children render the first time it opens. */
function renderNode(node: SnapshotNode, depth: number, memo: Map<SnapshotNode, boolean>): HTMLElement {
  const children = node.children ?? [];
  if (children.length === 0) return h('div', { className: 'afr-node afr-leaf' }, describeNode(node));
  const details = h('details', { className: 'afr-node' }, h('summary', null, describeNode(node), h('span', { className: 'afr-child-count' }, String(children.length))));
  const body = h('div', { className: 'afr-children' });
  details.appendChild(body);
  let rendered = false;
  const renderChildren = () => {
    if (rendered) return;
    rendered = true;
    for (const child of children) body.appendChild(renderNode(child, depth + 1, memo));
  };
  lazyChildren.set(details, renderChildren);
  details.addEventListener('toggle', () => {
    if (details.open) renderChildren();
  });
  if (depth < OPEN_DEPTH || redactedBelow(node, memo)) {
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

/** The DOM snapshot as a collapsible tree, redacted fields marked, with the page's facts above it. */
export function renderSnapshotTree(file: SnapshotFile | null): HTMLElement {
  const panel = h('section', { className: 'afr-panel afr-snapshot', data: { testid: 'snapshot' } });
  const snapshot = file?.snapshot ?? null;
  if (snapshot === null) {
    const why = file === null ? 'this bundle has no snapshot.json (capture level metadata)' : (file.error ?? 'unknown reason');
    panel.append(h('h2', null, 'DOM snapshot'), h('p', { className: 'afr-empty' }, `No DOM snapshot: ${why}`));
    return panel;
  }
  const tree = h('div', { className: 'afr-tree' }, renderNode(snapshot.root, 0, new Map()));
  const redactedFields = Object.values(snapshot.redaction.fields).reduce((sum, n) => sum + (n ?? 0), 0);
  panel.append(
    h(
      'h2',
      null,
      'DOM snapshot ',
      h('span', { className: 'afr-count' }, `${snapshot.node_count} nodes${snapshot.truncated ? ' (truncated)' : ''} \u00B7 ${redactedFields} redacted fields`),
      h('button', { className: 'afr-small', attrs: { type: 'button' }, on: { click: () => setAllOpen(tree, true) } }, 'expand all'),
      h('button', { className: 'afr-small', attrs: { type: 'button' }, on: { click: () => setAllOpen(tree, false) } }, 'collapse all'),
    ),
    h(
      'div',
      { className: 'afr-snapshot-facts' },
      h('span', null, snapshot.title || '(no title)'),
      h('span', { className: 'afr-url' }, snapshot.url),
      h('span', null, `viewport ${snapshot.viewport.width}\u00D7${snapshot.viewport.height}, scrolled ${snapshot.viewport.scroll_x},${snapshot.viewport.scroll_y}`),
      h('span', null, `taken ${formatDateTime(snapshot.taken_at)}`),
    ),
    tree,
  );
  return panel;
}

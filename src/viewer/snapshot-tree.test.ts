// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { pathToNode, renderTree, type TreeNode } from './snapshot-tree';
import { HOSTILE, makeBundleData } from '../../test/fakes/viewer-bundle';

const failureRoot = () => makeBundleData().snapshot!.snapshot!.root;

/** A chain `depth` elements deep under <body>, ids 1…depth+1, a sibling subtree beside each level. */
function chain(depth: number): TreeNode {
  const root: TreeNode = { id: 1, tag: 'body', children: [] };
  let node = root;
  for (let i = 2; i <= depth + 1; i++) {
    const child: TreeNode = { id: i, tag: i === depth + 1 ? 'button' : 'div', children: [] };
    node.children!.push(child, { id: 100_000 + i, tag: 'aside', children: [{ id: 200_000 + i, tag: 'span', text: `beside ${i}` }] });
    node = child;
  }
  return root;
}

describe('snapshot tree', () => {
  it('shows tag, role, name, attributes, value, text and rect of each element', () => {
    const tree = renderTree(failureRoot()).element;
    const lines = [...tree.querySelectorAll('.afr-node-line')].map((l) => l.textContent);
    expect(lines).toContain('<input>textbox"Name"type="text"id="name"value="Jane"');
    expect(lines).toContain('<input>textbox"Password"type="password"id="pw"redacted: password10,20 200\u00D724');
    expect(lines).toContain(`<p>Contact [email] ${HOSTILE}`);
    expect(tree.querySelector('img')).toBeNull();
  });

  it('opens the first levels and the paths to redacted fields; other nodes render when opened', () => {
    const rendered = renderTree(failureRoot());
    const tree = rendered.element;
    const widget = [...tree.querySelectorAll('details')].find((d) => d.querySelector('summary')!.textContent!.startsWith('<card-widget>'))!;
    expect(widget.open).toBe(false);
    expect(tree.textContent).not.toContain('inside the shadow root');
    expect(widget.textContent).toContain('#shadow-root');
    const [expandAll, collapseAll] = rendered.buttons;
    expect(expandAll!.textContent).toBe('expand all');
    expandAll!.click();
    expect(widget.open).toBe(true);
    expect(tree.textContent).toContain('inside the shadow root');
    collapseAll!.click();
    expect([...tree.querySelectorAll('details')].every((d) => !d.open)).toBe(true);
  });

  it('marks the target and opens the path down to it, however deep; the subtrees beside it stay closed', () => {
    const rendered = renderTree(chain(12), 13);
    expect(rendered.targetLine!.textContent).toBe('target<button>');
    expect(rendered.targetLine!.dataset.testid).toBe('target-node');
    expect(rendered.targetLine!.closest('details:not([open])')).toBeNull();
    expect(rendered.element.querySelectorAll('[data-testid="target-node"]').length).toBe(1);
    expect(rendered.element.textContent).not.toContain('beside 12');
  });

  it('marks nothing when no node has the target id', () => {
    const rendered = renderTree(chain(3), 999);
    expect(rendered.targetLine).toBeNull();
    expect(rendered.element.querySelector('.afr-target')).toBeNull();
  });

  it('finds the path to a node of a tree deeper than the call stack', () => {
    const path = pathToNode(chain(20_000), 20_001);
    expect(path.length).toBe(20_001);
    expect(path.map((n) => n.id).slice(0, 3)).toEqual([1, 2, 3]);
  });
});

// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { renderSnapshotTree } from './snapshot-tree';
import { HOSTILE, makeBundleData } from '../../test/fakes/viewer-bundle';

const snapshotFile = () => makeBundleData().snapshot!;

describe('snapshot tree', () => {
  it('shows tag, role, name, attributes, value, text and rect of each element', () => {
    const tree = renderSnapshotTree(snapshotFile());
    const lines = [...tree.querySelectorAll('.afr-node-line')].map((l) => l.textContent);
    expect(lines).toContain('<input>textbox"Name"type="text"id="name"value="Jane"');
    expect(lines).toContain('<input>textbox"Password"type="password"id="pw"redacted: password10,20 200\u00D724');
    expect(lines).toContain(`<p>Contact [email] ${HOSTILE}`);
    expect(tree.querySelector('img')).toBeNull();
  });

  it('opens the first levels and the paths to redacted fields; other nodes render when opened', () => {
    const tree = renderSnapshotTree(snapshotFile());
    const widget = [...tree.querySelectorAll('details')].find((d) => d.querySelector('summary')!.textContent!.startsWith('<card-widget>'))!;
    expect(widget.open).toBe(false);
    expect(tree.textContent).not.toContain('inside the shadow root');
    expect(widget.textContent).toContain('#shadow-root');
    const expandAll = [...tree.querySelectorAll('button')].find((b) => b.textContent === 'expand all')!;
    expandAll.click();
    expect(widget.open).toBe(true);
    expect(tree.textContent).toContain('inside the shadow root');
    [...tree.querySelectorAll('button')].find((b) => b.textContent === 'collapse all')!.click();
    expect([...tree.querySelectorAll('details')].every((d) => !d.open)).toBe(true);
  });

  it('says why there is no snapshot', () => {
    expect(renderSnapshotTree({ ...snapshotFile(), snapshot: null, error: 'the tab was closed' }).textContent).toContain('No DOM snapshot: the tab was closed');
  });
});

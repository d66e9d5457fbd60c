import { describe, expect, it } from 'vitest';
import { editBundle, editJson, makeBundle } from '../../test/fixtures/cli/make-bundle';
import { HOSTILE, makeBundleZip } from '../../test/fakes/viewer-bundle';
import { DEFAULT_DOM_OPTIONS, domOptions, readDom } from './dom-outline';
import { BundleReadError } from './errors';
import { openBundle } from './open-bundle';
import { domText, type Asker } from './render-text';

const ask: Asker = (read, args) => `${read} ${JSON.stringify(args)}`;
const outline = async (options: Partial<typeof DEFAULT_DOM_OPTIONS> & { selector?: string; node?: number; step?: number } = {}) =>
  readDom(await openBundle(await makeBundleZip()), { ...DEFAULT_DOM_OPTIONS, ...options });

describe('readDom', () => {
  it('outlines the page at the failure with numbered nodes, redacted values and quoted page text', async () => {
    const view = await outline();
    expect(view.nodes.map((n) => [n.id, n.depth, n.tag])).toEqual([[1, 0, 'body'], [2, 1, 'main'], [3, 2, 'form'], [4, 3, 'div'], [5, 4, 'input'], [6, 4, 'input'], [7, 3, 'p'], [8, 3, 'card-widget'], [9, 4, 'span']]);
    const lines = domText(view, ask);
    expect(lines).toContain('        [5] input#pw role=textbox name="Password" type="password" value withheld (password)');
    expect(lines).toContain('        [6] input#name role=textbox name="Name" type="text" value="Jane"');
    expect(lines).toContain(`      [7] p text=${JSON.stringify(`Contact [email] ${HOSTILE}`)}`);
    expect(lines).toContain('      [8] card-widget (shadow root)');
  });

  it('stops at a depth and says how to open what is below', async () => {
    const view = await outline({ depth: 2 });
    expect(view.nodes.map((n) => n.id)).toEqual([1, 2, 3]);
    expect(view.nodes[2]!.hidden_below).toBe(6);
    expect(domText(view, ask).at(-1)).toBe('deeper levels are left out: dom {"node":3} outlines one of them');
  });

  it('scopes to a selector or a node id, depth counted from there', async () => {
    const bySelector = await outline({ selector: 'form > div input' });
    expect([bySelector.roots, bySelector.nodes.map((n) => [n.id, n.depth])]).toEqual([2, [[5, 0], [6, 0]]]);
    const byNode = await outline({ node: 8 });
    expect(byNode.nodes.map((n) => [n.id, n.depth])).toEqual([[8, 0], [9, 1]]);
    // A match inside another match is outlined once, inside it.
    expect((await outline({ selector: 'form, input' })).nodes.map((n) => n.id)).toEqual([3, 4, 5, 6, 7, 8, 9]);
  });

  it('lists at most maxNodes and counts the rest', async () => {
    const view = await outline({ maxNodes: 4 });
    expect([view.nodes.length, view.omitted]).toEqual([4, 5]);
    expect(domText(view, ask).at(-1)).toBe('… 5 more nodes not listed: narrow with a selector or a node id, e.g. dom {"node":4}');
  });

  it('notes that a step before the failure is shown with the page at the failure', async () => {
    expect((await outline({ step: 2 })).note).toBe('step 2: the bundle holds no page of its own for it; this is the page at the failure (snapshot.json)');
    expect((await outline({ step: 6 })).note).toBeNull();
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['a selector matching nothing', { selector: 'table' }, 'no element matches "table"'],
    ['a node out of range', { node: 10 }, 'node 10 is out of range: the outline numbers 9 nodes (1 to 9)'],
    ['a step out of range', { step: 7 }, 'step 7 is out of range: the bundle has 6 steps (1 to 6)'],
    ['both scopes', { node: 1, selector: 'p' }, 'scope with a selector or a node id, not both'],
    ['a depth past the bound', { depth: 65 }, 'depth must be a whole number from 0 to 64'],
  ])('refuses %s', async (_name, options, message) => {
    const error = await outline(options).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BundleReadError);
    expect((error as Error).message).toBe(message);
  });

  it('never shows a withheld value, in the text or in --json, even one an edited bundle left in', async () => {
    const zip = await editBundle(await makeBundle(), (files) =>
      editJson(files, 'snapshot.json', (s) => Object.assign((s.snapshot as { root: { children: Record<string, unknown>[] } }).root.children[0]!, { value: 'hunter2-S3CRET' })),
    );
    const view = await readDom(await openBundle(zip), DEFAULT_DOM_OPTIONS);
    expect(view.nodes[1]).toMatchObject({ tag: 'input', value: null, redacted: 'password' });
    expect(JSON.stringify(view)).not.toContain('hunter2');
    expect(domText(view, ask)).toContain('  [2] input value withheld (password)');
  });

  it('says why there is no page when the recorder could not take it', async () => {
    const zip = await editBundle(await makeBundle(), (files) => editJson(files, 'snapshot.json', (s) => Object.assign(s, { snapshot: null, error: 'tab was closed' })));
    await expect(readDom(await openBundle(zip), DEFAULT_DOM_OPTIONS)).rejects.toThrow('the bundle has no page snapshot: "tab was closed"');
  });
});

describe('domOptions', () => {
  it.each([
    { name: 'nothing asked: the defaults', asked: {}, want: DEFAULT_DOM_OPTIONS },
    { name: 'flags given', asked: { depth: 2, maxNodes: 10, selector: 'form', step: 3 }, want: { depth: 2, maxNodes: 10, selector: 'form', step: 3 } },
    { name: 'undefined arguments leave no key', asked: { depth: undefined, node: undefined, step: undefined }, want: DEFAULT_DOM_OPTIONS },
  ])('$name', ({ asked, want }) => {
    expect(domOptions(asked)).toStrictEqual(want);
  });
});

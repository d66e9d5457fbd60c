import { describe, expect, it } from 'vitest';
import { editBundle, editJson, makeBundle } from '../../test/fixtures/cli/make-bundle';
import { HOSTILE, makeBundleZip } from '../../test/fakes/viewer-bundle';
import { BundleReadError } from './errors';
import { openBundle } from './open-bundle';
import { pageRequest } from './paging';
import { stepsText, stepText, type Asker } from './render-text';
import { listSteps, readStep } from './steps';

const ask: Asker = (read, args) => `${read} ${JSON.stringify(args)}`;

async function refusal(promise: Promise<unknown>): Promise<BundleReadError> {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(BundleReadError);
  return error as BundleReadError;
}

describe('steps', () => {
  it('pages the steps with their frame (the screen at their time) and says how to read on', async () => {
    const reader = await openBundle(await makeBundle());
    const page = await listSteps(reader, pageRequest(1, 5));
    expect(page).toMatchObject({ first: 1, page: 1, pages: 3, total: 12, remaining: 7 });
    expect(page.items.map((s) => [s.index, s.at_ms, s.frame])).toEqual([[1, -9000, 1], [2, -8000, 1], [3, -7000, 1], [4, -6000, 1], [5, -5000, 1]]);
    expect(page.items[4]).toMatchObject({ value: null, value_redacted: true, target: 'input "Password" #password' });
    expect(stepsText(page, ask).at(-1)).toBe('… 7 more steps: steps {"page":2,"page-size":5}');
    const last = await listSteps(reader, pageRequest(3, 5));
    expect(last.items.map((s) => s.index)).toEqual([11, 12]);
    expect(stepsText(last, ask).at(-1)).toMatch(/^#12 0\.0s recorder signal/);
    expect((await refusal(listSteps(reader, pageRequest(4, 5)))).message).toBe('page 4 is out of range: 12 entries make 3 pages of 5');
    expect(() => pageRequest(0, 5)).toThrow(BundleReadError);
    expect(() => pageRequest(1, 10_000)).toThrow(/page size must be a whole number from 1 to 200/);
  });

  it('reads one step with the DOM references a later recorder adds, bounded, and refuses an index out of range', async () => {
    const changes = { from_checkpoint: 3, to_checkpoint: 4, new_document: false, added: [{ id: 9, tag: 'div', label: 'Error: card declined', size: 2, parent: 4 }], removed: [], text: [], attributes: [], values: [] };
    const zip = await editBundle(await makeBundle(), (files) =>
      editJson(files, 'steps.json', (s) => {
        const steps = s.steps as Record<string, unknown>[];
        Object.assign(steps[9]!, { target: { tag: 'button', name: 'Place order', selector: '#place-order', node_id: 42, rect: { x: 1, y: 2, width: 3, height: 4 } }, snapshot: { checkpoint: 4 }, changes, goal: 'pay' });
      }),
    );
    const reader = await openBundle(zip);
    const step = await readStep(reader, 10);
    expect(step).toMatchObject({ index: 10, goal: 'pay', target_detail: { node_id: 42, rect: { x: 1, y: 2, width: 3, height: 4 } }, snapshot: { checkpoint: 4 }, changes, nearest_frame: { index: 4, at_ms: -1000 } });
    const text = stepText(step, ask);
    expect(text).toContain('  changes: 1 added, 0 removed, 0 text, 0 attributes, 0 values');
    expect(text).toContain('    added: {"id":9,"tag":"div","label":"Error: card declined","size":2,"parent":4}');
    expect(text).toContain('  frame: 4 (-1.0s, the screen at this step): frame {"index":4}');
    // What the bundle holds as JSON prints as JSON, its page text in JSON's own quotes, never quoted twice.
    expect(text).toContain('  target: {"node_id":42,"rect":{"x":1,"y":2,"width":3,"height":4}}');
    expect(text).toContain('  page snapshot: {"checkpoint":4}');
    // A step before the first frame: its frame is the first one, and the text says it came after.
    expect(stepText({ ...step, at_ms: -9000 }, ask)).toContain('  frame: 4 (-1.0s, the first frame, taken 8.0 s after this step): frame {"index":4}');
    const error = await refusal(readStep(reader, 13));
    expect([error.message, error.kind]).toEqual(['step 13 is out of range: the bundle has 12 steps (1 to 12)', 'argument']);
  });

  it('shows markup an agent or a page wrote as quoted text', async () => {
    const reader = await openBundle(await makeBundleZip());
    const step = await readStep(reader, 4);
    expect(stepText(step, ask)[0]).toBe(`#4 -1.1s agent agent ${JSON.stringify(HOSTILE)} on "</script><script>alert(2)</script>" → ok label "checkout" [frame 2]`);
  });
});

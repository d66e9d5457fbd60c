import { describe, expect, it } from 'vitest';
import { StepSnapshotFileSchema, type Checkpoint, type TimelineData, type TimelineEntry, type TimelineRecord } from '../../schemas/timeline';
import type { Step } from '../../schemas/steps';
import { layOutStepPages } from './step-pages';

const T0 = 1_000_000;
const checkpoint = (seq: number, changes: number, label = `step ${seq}`, url = 'https://shop.test/'): Checkpoint => ({
  kind: 'checkpoint',
  at: T0 + seq,
  seq,
  label,
  changes,
  url,
  title: 'Shop',
  truncated: false,
});
const doc = (id: string, records: TimelineRecord[], entries: TimelineEntry[]): TimelineData => ({
  version: 1,
  document_id: id,
  base: { at: T0, root: 1, records, changes: 0, truncated: false },
  entries,
  bytes: { base: 0, entries: 0 },
});
const shop = doc(
  'shop',
  [
    { id: 1, tag: 'html', children: [2] },
    { id: 2, tag: 'body', children: [3, 4] },
    { id: 3, tag: 'span', text: '0', attributes: { id: 'cart-count' } },
    { id: 4, tag: 'form', attributes: { id: 'checkout' } },
  ],
  [checkpoint(0, 0, 'load page'), checkpoint(1, 0), { kind: 'fields', at: T0 + 2, node: { id: 3, tag: 'span', text: '1', attributes: { id: 'cart-count' } } }, checkpoint(2, 1), checkpoint(3, 1, 'leave page')],
);
const errorPage = doc('error', [{ id: 1, tag: 'html', children: [2] }, { id: 2, tag: 'h1', text: 'Internal Server Error' }], [checkpoint(0, 0, 'load page', 'https://shop.test/submit')]);
const step = (seq: number, checkpointOf?: { document_id: string; seq: number }): Step => ({
  ts: T0 + seq,
  seq,
  tab_id: 7,
  frame_id: 0,
  url: null,
  source: 'observer',
  kind: 'click',
  action: 'click',
  target: null,
  value: null,
  value_redacted: false,
  outcome: null,
  label: null,
  ...(checkpointOf ? { checkpoint: checkpointOf } : {}),
});

describe('the pages at the steps of a bundle', () => {
  it('names each step its page, writes identical pages once, and says what each step changed', () => {
    const steps = [step(1, { document_id: 'shop', seq: 1 }), step(2, { document_id: 'shop', seq: 2 }), step(3)];
    const pages = layOutStepPages('b1', [shop, errorPage], steps);
    for (const { file } of pages.files) expect(StepSnapshotFileSchema.safeParse(file).success).toBe(true);
    // load = step 1's page; step 2's page = the page left; the error page: three files.
    expect(pages.files.map((f) => f.name)).toEqual(['snapshots/page-001.json', 'snapshots/page-002.json', 'snapshots/page-003.json']);
    const [first, second, third] = pages.steps;
    expect(first!.snapshot).toBe('snapshots/page-001.json');
    expect(first!.changes?.diff.text).toEqual([expect.objectContaining({ id: 3, from: '0', to: '1' })]);
    expect(first!.changes?.description).toContain("from '0' to '1'");
    expect(second!.snapshot).toBe('snapshots/page-002.json');
    expect(second!.changes).toMatchObject({ to: 'snapshots/page-003.json', diff: { new_document: true } });
    expect(second!.changes?.description).toMatch(/the form '#checkout' disappeared/);
    expect(third).toEqual(step(3));
  });

  it('names the page the navigation replaced as previous when the failure page is a fresh document', () => {
    const steps = [step(1, { document_id: 'shop', seq: 2 })];
    const fresh = layOutStepPages('b1', [shop, errorPage], steps);
    expect(fresh.previous).toBe(fresh.steps[0]!.snapshot);
    // The failure page's own timeline not in yet: the last document was left all the same.
    const left = layOutStepPages('b1', [shop], steps);
    expect(left.previous).toBe(left.steps[0]!.snapshot);
    expect(layOutStepPages('b1', [errorPage], [step(1, { document_id: 'error', seq: 0 })]).previous).toBeUndefined();
  });

  it('keeps the newest pages within its budget and leaves the older ones out', () => {
    const steps = [step(1, { document_id: 'shop', seq: 1 }), step(2, { document_id: 'shop', seq: 2 })];
    const whole = layOutStepPages('b1', [shop, errorPage], steps);
    const budget = whole.files.slice(1).reduce((n, f) => n + JSON.stringify(f.file.snapshot.root).length + 60, 0);
    const capped = layOutStepPages('b1', [shop, errorPage], steps, budget);
    expect(capped.leftOut).toBe(1);
    expect(capped.steps[0]!.snapshot).toBeUndefined();
    expect(capped.steps[1]!.snapshot).toBe('snapshots/page-001.json');
    expect(capped.steps[1]!.changes?.to).toBe('snapshots/page-002.json');
  });

  it('leaves a step whose checkpoint is no longer kept without a page', () => {
    const pages = layOutStepPages('b1', [shop], [step(1, { document_id: 'gone', seq: 4 })]);
    expect(pages.steps[0]!.snapshot).toBeUndefined();
  });

  it('tells a change once, at the last step shown the page before it', () => {
    // Steps 1 and 2 both see the page at checkpoint 1 (nothing changed between them): step 2 caused the change.
    const steps = [step(1, { document_id: 'shop', seq: 1 }), { ...step(1, { document_id: 'shop', seq: 1 }), seq: 9 }, step(2, { document_id: 'shop', seq: 2 })];
    const pages = layOutStepPages('b1', [shop, errorPage], steps);
    const [first, second] = pages.steps;
    expect(first!.snapshot).toBe(second!.snapshot);
    expect(first!.changes).toMatchObject({ to: first!.snapshot, description: 'nothing changed' });
    expect(second!.changes?.description).toContain("from '0' to '1'");
  });

  it('tells a change at the click that submitted a form, not at the submit that answered it', () => {
    const submit: Step = { ...step(2, { document_id: 'shop', seq: 2 }), seq: 3, kind: 'submit', action: 'submit' };
    const pages = layOutStepPages('b1', [shop, errorPage], [step(2, { document_id: 'shop', seq: 2 }), submit]);
    const [click, submitted] = pages.steps;
    expect(click!.changes).toMatchObject({ diff: { new_document: true } });
    expect(submitted!.changes).toMatchObject({ to: submitted!.snapshot, description: 'nothing changed' });
    // A submit alone on its page tells it all the same.
    expect(layOutStepPages('b1', [shop, errorPage], [submit]).steps[0]!.changes).toMatchObject({ diff: { new_document: true } });
  });
});

describe('a step whose checkpoint was taken late', () => {
  // The page loads (checkpoint 0), the agent posts "open the shop" at T0 + 10, a click at T0 + 500
  // changes the cart (checkpoint 1 just before it), and the agent's checkpoint comes at T0 + 2600.
  const late = doc(
    'late',
    [
      { id: 1, tag: 'html', children: [2] },
      { id: 2, tag: 'span', text: 'Cart (0)' },
    ],
    [
      { ...checkpoint(0, 0, 'load page'), at: T0 },
      { ...checkpoint(1, 0, 'click'), at: T0 + 500 },
      { kind: 'fields', at: T0 + 510, node: { id: 2, tag: 'span', text: 'Cart (1)' } },
      { ...checkpoint(2, 1, 'step open the shop'), at: T0 + 2600 },
    ],
  );
  const agentStep = (ts: number, seq: number): Step => ({ ...step(0, { document_id: 'late', seq }), ts, source: 'agent', kind: 'agent', action: 'open the shop' });
  const cartText = (name: string | undefined, pages: ReturnType<typeof layOutStepPages>) =>
    pages.files.find((f) => f.name === name)?.file.snapshot.root.children?.[0]?.text;

  it('names the page at the step\'s time (the last checkpoint before it, unchanged since), never the later page', () => {
    const pages = layOutStepPages('b1', [late], [agentStep(T0 + 10, 2), step(500, { document_id: 'late', seq: 1 })]);
    expect(cartText(pages.steps[0]!.snapshot, pages)).toBe('Cart (0)');
    expect(pages.steps[0]!.snapshot).toBe(pages.steps[1]!.snapshot);
  });

  it('names no page when the page changed both before the step and before its late checkpoint', () => {
    const changedEarly = { ...late, entries: [late.entries[0]!, { kind: 'fields' as const, at: T0 + 5, node: { id: 2, tag: 'span', text: 'Cart (9)' } }, ...late.entries.slice(1)] };
    const pages = layOutStepPages('b1', [changedEarly], [agentStep(T0 + 10, 2)]);
    expect(pages.steps[0]!.snapshot).toBeUndefined();
    expect(pages.steps[0]!.changes).toBeUndefined();
  });

  it('keeps a late checkpoint when nothing changed in between (readers say it was late)', () => {
    const pages = layOutStepPages('b1', [late], [agentStep(T0 + 600, 2)]);
    expect(cartText(pages.steps[0]!.snapshot, pages)).toBe('Cart (1)');
  });
});

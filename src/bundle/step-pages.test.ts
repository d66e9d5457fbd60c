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
});

import { describe, expect, it, vi } from 'vitest';
import type { Checkpoint, TimelineData, TimelineEntry, TimelineMessage, TimelineRecord } from '../../../schemas/timeline';
import { rebuildAll } from '../data/rebuild';
import { MemoryTimelineStorage } from '../../../test/fakes/memory-timeline-storage';
import { FOLD_SLACK_MS, TimelineKeeper } from './timeline-keeper';

const T0 = 1_000_000;
const records: TimelineRecord[] = [
  { id: 1, tag: 'html', children: [2] },
  { id: 2, tag: 'body', children: [3] },
  { id: 3, tag: 'span', text: '0' },
];
const data = (documentId: string, at = T0): TimelineData => ({
  version: 1,
  document_id: documentId,
  base: { at, root: 1, records, changes: 0, truncated: false },
  entries: [],
  bytes: { base: 0, entries: 0 },
});
const checkpoint = (seq: number, at: number, changes: number): Checkpoint => ({ kind: 'checkpoint', at, seq, label: `step ${seq}`, changes, url: 'https://shop.test/', title: 'Shop', truncated: false });
const text = (value: string, at: number): TimelineEntry => ({ kind: 'fields', at, node: { id: 3, tag: 'span', text: value } });

function setup(maxBytes = 1024 * 1024) {
  const clock = { now: () => T0 };
  const storage = new MemoryTimelineStorage();
  const log = vi.fn();
  const keeper = new TimelineKeeper(storage, clock, () => ({ windowMs: 15_000, maxBytes }), log);
  return { clock, storage, log, keeper };
}

describe('the DOM timeline keeper', () => {
  it('keeps a document as its base and batches, and rebuilds each checkpoint from them', async () => {
    const { keeper } = setup();
    await keeper.receive(7, { type: 'timeline/start', ts: T0, data: data('doc-a') });
    await keeper.receive(7, { type: 'timeline/entries', document_id: 'doc-a', first: 0, entries: [checkpoint(0, T0 + 1, 0), text('1', T0 + 2)] });
    await keeper.receive(7, { type: 'timeline/entries', document_id: 'doc-a', first: 2, entries: [checkpoint(1, T0 + 3, 1)] });
    const [doc] = await keeper.documents(7, T0 - 1);
    const pages = rebuildAll(doc!);
    expect(pages.map((p) => p.root.children?.[0]?.children?.[0]?.text)).toEqual(['0', '1']);
  });

  it('drops a batch after a gap, and everything after it, with a warning', async () => {
    const { keeper, log } = setup();
    await keeper.receive(7, { type: 'timeline/start', ts: T0, data: data('doc-a') });
    await keeper.receive(7, { type: 'timeline/entries', document_id: 'doc-a', first: 3, entries: [checkpoint(0, T0 + 1, 0)] });
    await keeper.receive(7, { type: 'timeline/entries', document_id: 'doc-a', first: 0, entries: [checkpoint(0, T0 + 1, 0)] });
    expect((await keeper.documents(7, 0))[0]!.entries).toEqual([]);
    expect(log).toHaveBeenCalledWith(expect.stringContaining('never came'));
  });

  it("takes no entries for another tab's document", async () => {
    const { keeper } = setup();
    await keeper.receive(7, { type: 'timeline/start', ts: T0, data: data('doc-a') });
    await keeper.receive(8, { type: 'timeline/entries', document_id: 'doc-a', first: 0, entries: [text('forged', T0 + 1)] });
    expect((await keeper.documents(7, 0))[0]!.entries).toEqual([]);
    expect(await keeper.documents(8, 0)).toEqual([]);
  });

  it('folds changes past the window into the base, and drops documents past it', async () => {
    const { keeper, clock, storage } = setup();
    await keeper.receive(7, { type: 'timeline/start', ts: T0, data: data('doc-a') });
    await keeper.receive(7, { type: 'timeline/entries', document_id: 'doc-a', first: 0, entries: [checkpoint(0, T0 + 1, 0), text('1', T0 + 2)] });
    clock.now = () => T0 + 15_000 + FOLD_SLACK_MS + 10;
    await keeper.receive(7, { type: 'timeline/entries', document_id: 'doc-a', first: 2, entries: [checkpoint(1, clock.now(), 1)] });
    const [doc] = await keeper.documents(7, 0);
    expect(doc!.base.changes).toBe(1);
    expect(doc!.entries.map((e) => e.kind)).toEqual(['checkpoint']);
    expect(rebuildAll(doc!)[0]!.root.children?.[0]?.children?.[0]?.text).toBe('1');
    clock.now = () => T0 + 60_000;
    await keeper.applyLimits();
    expect(await keeper.documents(7, 0)).toEqual([]);
    expect(storage.bases.size + storage.chunks.size + storage.metas.size).toBe(0);
  });

  it('drops the oldest documents past its byte cap', async () => {
    const { keeper, log } = setup(400);
    await keeper.receive(7, { type: 'timeline/start', ts: T0, data: data('doc-a', T0 - 2) });
    await keeper.receive(7, { type: 'timeline/start', ts: T0, data: data('doc-b', T0 - 1) });
    await keeper.receive(7, { type: 'timeline/start', ts: T0, data: data('doc-c', T0) });
    expect((await keeper.documents(7, 0)).map((d) => d.document_id)).toEqual(['doc-b', 'doc-c']);
    expect(keeper.stats().bytes).toBeLessThanOrEqual(400);
    expect(log).toHaveBeenCalledWith(expect.stringContaining('byte cap'));
  });

  it('survives a restart: a new keeper over the same storage reads what was kept', async () => {
    const { keeper, storage, clock } = setup();
    await keeper.receive(7, { type: 'timeline/start', ts: T0, data: data('doc-a') });
    await keeper.receive(7, { type: 'timeline/entries', document_id: 'doc-a', first: 0, entries: [checkpoint(0, T0 + 1, 0)] });
    const again = new TimelineKeeper(storage, clock, () => ({ windowMs: 15_000, maxBytes: 1024 * 1024 }), vi.fn());
    await again.load();
    await again.receive(7, { type: 'timeline/entries', document_id: 'doc-a', first: 1, entries: [checkpoint(1, T0 + 2, 0)] });
    expect(rebuildAll((await again.documents(7, 0))[0]!).map((p) => p.checkpoint)).toEqual([0, 1]);
  });

  it('counts what it accepted, base and entries as stored, and keeps counting past the window and the cap', async () => {
    const { keeper, clock } = setup(400);
    await keeper.receive(7, { type: 'timeline/start', ts: T0, data: { ...data('doc-a'), entries: [checkpoint(0, T0, 0)] } });
    const started = keeper.stats();
    expect(started).toMatchObject({ receivedDocuments: 1, receivedEntries: 1, receivedCheckpoints: 1 });
    expect(started.receivedBytes).toBe(started.bytes);
    const batch = [text('1', T0 + 1), checkpoint(1, T0 + 2, 1)];
    await keeper.receive(7, { type: 'timeline/entries', document_id: 'doc-a', first: 1, entries: batch });
    expect(keeper.stats().receivedBytes).toBe(started.receivedBytes + JSON.stringify(batch).length);
    expect(keeper.stats()).toMatchObject({ receivedEntries: 3, receivedCheckpoints: 2 });
    // Refused: a gap, and another tab's document.
    await keeper.receive(7, { type: 'timeline/entries', document_id: 'doc-a', first: 9, entries: [checkpoint(2, T0 + 3, 0)] });
    await keeper.receive(8, { type: 'timeline/entries', document_id: 'doc-a', first: 3, entries: [checkpoint(2, T0 + 3, 0)] });
    expect(keeper.stats()).toMatchObject({ receivedEntries: 3, receivedCheckpoints: 2 });
    // Documents dropped by the cap and the window are still counted as received.
    await keeper.receive(7, { type: 'timeline/start', ts: T0, data: data('doc-b', T0 + 4) });
    await keeper.receive(7, { type: 'timeline/start', ts: T0, data: data('doc-c', T0 + 5) });
    clock.now = () => T0 + 60_000;
    await keeper.applyLimits();
    const after = keeper.stats();
    expect(after).toMatchObject({ documents: 0, bytes: 0, receivedDocuments: 3, receivedEntries: 3, receivedCheckpoints: 2 });
    expect(after.receivedBytes).toBeGreaterThan(started.receivedBytes + JSON.stringify(batch).length);
  });

  it('starts counting from zero in a new keeper (a restarted worker) over what an earlier one kept', async () => {
    const { keeper, storage, clock } = setup();
    await keeper.receive(7, { type: 'timeline/start', ts: T0, data: data('doc-a') });
    const again = new TimelineKeeper(storage, clock, () => ({ windowMs: 15_000, maxBytes: 1024 * 1024 }), vi.fn());
    await again.load();
    expect(again.stats()).toMatchObject({ documents: 1, receivedDocuments: 0, receivedEntries: 0, receivedBytes: 0 });
  });

  it('drops every document when asked (the redaction rules changed)', async () => {
    const { keeper, storage } = setup();
    await keeper.receive(7, { type: 'timeline/start', ts: T0, data: data('doc-a') });
    await keeper.clear();
    expect(await keeper.documents(7, 0)).toEqual([]);
    expect(storage.bases.size).toBe(0);
  });
});

describe('a base sent in parts', () => {
  // html > body > span, then 3 more spans under the body, sent in 3 parts.
  const spans: TimelineRecord[] = [4, 5, 6].map((id) => ({ id, tag: 'span', text: `s${id}` }));
  const all: TimelineRecord[] = [{ id: 1, tag: 'html', children: [2] }, { id: 2, tag: 'body', children: [3, 4, 5, 6] }, records[2]!, ...spans];
  const start = (documentId = 'doc-p', parts = 3): TimelineMessage => ({
    type: 'timeline/start',
    ts: T0,
    data: { ...data(documentId), base: { ...data(documentId).base, records: all.slice(0, 3) } },
    parts,
  });
  const part = (n: number, documentId = 'doc-p', parts = 3): TimelineMessage => ({
    type: 'timeline/base-part',
    document_id: documentId,
    part: n,
    parts,
    records: n === 1 ? all.slice(3, 5) : all.slice(5),
  });
  const entries = (documentId = 'doc-p'): TimelineMessage => ({ type: 'timeline/entries', document_id: documentId, first: 0, entries: [checkpoint(0, T0 + 1, 0)] });
  const spanTexts = async (keeper: TimelineKeeper) =>
    (await keeper.documents(7, 0)).map((d) => rebuildAll(d)[0]?.root.children?.[0]?.children?.map((c) => c.text));

  it('is kept once its last part came, whole, and takes its entries after it', async () => {
    const { keeper, log } = setup();
    await keeper.receive(7, start());
    await keeper.receive(7, part(1));
    expect(await keeper.documents(7, 0)).toEqual([]);
    await keeper.receive(7, part(2));
    await keeper.receive(7, entries());
    expect(await spanTexts(keeper)).toEqual([['0', 's4', 's5', 's6']]);
    expect(log).not.toHaveBeenCalled();
  });

  it.each([
    ['a part out of order', [start(), part(2), part(1), entries()], /part 2 of 3 came where part 1 of 3 was due/],
    ['a part missing (entries came first)', [start(), part(1), entries(), part(2)], /entries came before its last part \(2 of 3\)/],
    ['a part whose count differs', [start(), part(1), { ...part(2), parts: 4 } as TimelineMessage], /part 2 of 4 came where part 2 of 3 was due/],
    ['a part of a start that never came', [part(1), part(2), entries()], /not waiting for it/],
    ['a new document of the tab before the last part', [start(), part(1), { type: 'timeline/start', ts: T0, data: data('doc-n') } as TimelineMessage, part(2)], /a new document started/],
  ])('%s: the document is dropped with a logged reason, and the keeper goes on', async (_what, messages, reason) => {
    const { keeper, log } = setup();
    for (const m of messages) await keeper.receive(7, m);
    expect((await keeper.documents(7, 0)).map((d) => d.document_id)).not.toContain('doc-p');
    expect(log).toHaveBeenCalledWith(expect.stringMatching(reason));
    // The next document is kept as usual.
    for (const m of [start('doc-q'), part(1, 'doc-q'), part(2, 'doc-q')]) await keeper.receive(7, m);
    expect((await keeper.documents(7, 0)).map((d) => d.document_id)).toContain('doc-q');
  });

  it("takes no part of another tab's base", async () => {
    const { keeper, log } = setup();
    await keeper.receive(7, start());
    await keeper.receive(8, part(1));
    expect(log).toHaveBeenCalledWith(expect.stringMatching(/tab 8: part 1 .* not waiting/));
    await keeper.receive(7, part(1));
    await keeper.receive(7, part(2));
    await keeper.receive(7, entries());
    expect(await spanTexts(keeper)).toEqual([['0', 's4', 's5', 's6']]);
  });
});

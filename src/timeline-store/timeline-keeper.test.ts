import { describe, expect, it, vi } from 'vitest';
import type { Checkpoint, TimelineData, TimelineEntry, TimelineRecord } from '../../schemas/timeline';
import { rebuildAll } from '../timeline-data/rebuild';
import { MemoryTimelineStorage } from './memory-timeline-storage';
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

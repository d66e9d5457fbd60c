// @vitest-environment happy-dom
import { afterEach, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { TimelineBasePartMessageSchema, TimelineEntriesMessageSchema, TimelineStartMessageSchema, type TimelineEntriesMessage, type TimelineMessage, type TimelineStartMessage } from '../../../schemas/timeline';
import { LEAVE_PAGE_LABEL } from '../../../schemas/content-port';
import { BUILT_IN_MASKER } from '../../redact/mask-text';
import { rebuildAll } from '../data/rebuild';
import { takeSnapshot } from '../../snapshot/take-snapshot';
import { MemoryTimelineStorage } from '../../../test/fakes/memory-timeline-storage';
import { TimelineKeeper } from '../store/timeline-keeper';
import { comparable } from '../../../test/fakes/random-pages';
import { startPageTimeline, type PageTimeline } from './page-timeline';

let timeline: PageTimeline | null = null;
afterEach(() => timeline?.stop());

// A sliced start of a big page takes over a second on a loaded machine (vi.waitFor's default bound).
const started = async (sent: unknown[]) => vi.waitFor(() => expect(sent.some((m) => (m as { type: string }).type === 'timeline/start')).toBe(true), { timeout: 10_000 });

it('sends the base once started, then batches of entries that rebuild every checkpoint, with a target for each action', async () => {
  document.body.innerHTML = '<p>Cart <span id="count">0</span></p><button id="add">Add to cart</button><input id="pw" type="password">';
  const sent: TimelineMessage[] = [];
  timeline = startPageTimeline(document, BUILT_IN_MASKER, { bufferSeconds: 15, send: (m) => sent.push(m) });
  // Asked before the first snapshot is whole: it waits for it.
  expect(timeline.checkpoint('early')).toMatchObject({ seq: 0 });
  await started(sent);

  const add = document.getElementById('add')!;
  const place = timeline.beforeAction("click button 'Add to cart'", add, { x: 10.4, y: 20.6 })!;
  document.getElementById('count')!.textContent = '1';
  (document.getElementById('pw') as HTMLInputElement).value = 'Hunter2!';
  document.getElementById('pw')!.dispatchEvent(new Event('input', { bubbles: true }));
  const after = timeline.checkpoint('step check the cart')!;
  timeline.flush();

  const [start, ...batches] = sent;
  expect(TimelineStartMessageSchema.parse(start).data.document_id).toBe(place.checkpoint.document_id);
  for (const b of batches) TimelineEntriesMessageSchema.parse(b);
  let first = (start as TimelineStartMessage).data.entries.length;
  for (const b of batches as TimelineEntriesMessage[]) {
    expect(b.first).toBe(first);
    first += b.entries.length;
  }
  const data = { ...(start as TimelineStartMessage).data };
  data.entries = [...data.entries, ...(batches as TimelineEntriesMessage[]).flatMap((b) => b.entries)];
  const pages = rebuildAll(data);
  const at = (seq: number) => pages.find((p) => p.checkpoint === seq)!;
  const textOf = (seq: number) => JSON.stringify(at(seq).root);
  expect(textOf(place.checkpoint.seq)).toContain('"text":"0"');
  expect(textOf(after.seq)).toContain('"text":"1"');
  expect(JSON.stringify(sent)).not.toContain('Hunter2!');
  expect(place.point).toEqual({ x: 10, y: 21 });
  expect(JSON.stringify(at(place.checkpoint.seq).root)).toContain(`"id":${place.node},"tag":"button"`);
});

it('sends nothing more once stopped', async () => {
  document.body.innerHTML = '<p>hello</p>';
  const sent: unknown[] = [];
  timeline = startPageTimeline(document, BUILT_IN_MASKER, { bufferSeconds: 15, send: (m) => sent.push(m) });
  await started(sent);
  timeline.stop();
  const count = sent.length;
  document.body.innerHTML = '<p>changed</p>';
  expect(timeline.checkpoint('after stop')).toBeNull();
  timeline.flush();
  expect(sent.length).toBe(count);
});

const cards = (n: number) => Array.from({ length: n }, (_, i) => `<section><h3>Card ${i}</h3><button id="b${i}">Add ${i}</button><ul><li>a</li><li>b</li></ul></section>`).join('');

/** What the worker keeps of what was sent: the keeper as the service worker runs it. */
async function kept(sent: TimelineMessage[]) {
  const log = vi.fn();
  const keeper = new TimelineKeeper(new MemoryTimelineStorage(), { now: () => Date.now() }, () => ({ windowMs: 60_000, maxBytes: 64 << 20 }), log);
  for (const m of sent) await keeper.receive(7, TimelineMessageSchema.parse(m));
  return { docs: await keeper.documents(7, 0), log };
}
const TimelineMessageSchema = z.discriminatedUnion('type', [TimelineStartMessageSchema, TimelineBasePartMessageSchema, TimelineEntriesMessageSchema]);

it('an action during the sliced start of a big page gets a checkpoint and its target node, resolved once the page is whole', async () => {
  document.body.innerHTML = `<main>${cards(60)}</main>`;
  const sent: TimelineMessage[] = [];
  timeline = startPageTimeline(document, BUILT_IN_MASKER, { bufferSeconds: 15, send: (m) => sent.push(m), sliceMs: 0 });
  const button = document.getElementById('b59')!;
  const place = timeline.beforeAction("click button 'Add 59'", button, { x: 4, y: 5 })!;
  const step = timeline.checkpoint('step agent checks the cart')!;
  expect(sent).toEqual([]);
  expect(place.checkpoint).toEqual({ document_id: expect.any(String), seq: 0 });
  expect(step).toEqual({ document_id: place.checkpoint.document_id, seq: 1 });
  button.textContent = 'Added';
  await started(sent);
  timeline.flush();
  const { docs } = await kept(sent);
  const pages = rebuildAll(docs[0]!);
  expect(docs[0]!.document_id).toBe(place.checkpoint.document_id);
  const page = pages.find((p) => p.checkpoint === place.checkpoint.seq)!;
  expect(page.asked_at).toBeLessThanOrEqual(page.at);
  expect(JSON.stringify(page.root)).toContain(`{"id":${place.node},"tag":"button","role":"button","name":"Added","text":"Added","attributes":{"id":"b59"}`);
  expect(pages.map((p) => p.label)).toEqual(["click button 'Add 59'", 'step agent checks the cart']);
});

it('ships a big base in parts, one per task, before any entries; the worker puts it together', async () => {
  document.body.innerHTML = `<main>${cards(60)}</main>`;
  const sent: TimelineMessage[] = [];
  const inTask: number[] = [];
  timeline = startPageTimeline(document, BUILT_IN_MASKER, {
    bufferSeconds: 15,
    basePartBytes: 2_000,
    send: (m) => {
      sent.push(m);
      // How many messages were sent by the end of this task's microtasks.
      if (m.type === 'timeline/start') queueMicrotask(() => inTask.push(sent.length));
    },
  });
  await started(sent);
  const start = sent[0] as TimelineStartMessage;
  expect(start.parts).toBeGreaterThan(3);
  // The load page checkpoint was recorded at once, but waits for the parts.
  await Promise.resolve();
  expect(inTask).toEqual([1]);
  await vi.waitFor(() => expect(sent.some((m) => m.type === 'timeline/entries')).toBe(true));
  const types = sent.map((m) => m.type);
  expect(types.slice(0, start.parts)).toEqual(['timeline/start', ...Array(start.parts! - 1).fill('timeline/base-part')]);
  expect(types.slice(start.parts)).toEqual(['timeline/entries']);
  const { docs, log } = await kept(sent);
  expect(log).not.toHaveBeenCalled();
  const [page] = rebuildAll(docs[0]!);
  expect(page!.label).toBe('load page');
  expect(comparable(page!.root)).toEqual(comparable(takeSnapshot(document, BUILT_IN_MASKER, { maxNodes: 1e6 }).root));
});

it('a flush (the page left) sends the parts left and the entries at once, and finishes a start that a step waits for', async () => {
  document.body.innerHTML = `<main>${cards(60)}</main>`;
  const sent: TimelineMessage[] = [];
  timeline = startPageTimeline(document, BUILT_IN_MASKER, { bufferSeconds: 15, basePartBytes: 2_000, send: (m) => sent.push(m), sliceMs: 0 });
  const place = timeline.beforeAction("click button 'Add 3'", document.getElementById('b3'), undefined)!;
  timeline.checkpoint('leave page');
  timeline.flush();
  // In the same task: the rest of the snapshot taken, then everything sent (in microtasks, no timer).
  for (let i = 0; i < 5; i++) await Promise.resolve();
  const types = sent.map((m) => m.type);
  expect(types[0]).toBe('timeline/start');
  expect(types.at(-1)).toBe('timeline/base-part');
  const { docs } = await kept(sent);
  const pages = rebuildAll(docs[0]!);
  expect(pages.map((p) => [p.checkpoint, p.label])).toEqual([
    [0, "click button 'Add 3'"],
    [1, 'leave page'],
  ]);
  expect(JSON.stringify(pages[0]!.root)).toContain(`{"id":${place.node},"tag":"button"`);
});

it('a page left before its first snapshot is whole, with no step on it, is not finished for that', async () => {
  document.body.innerHTML = `<main>${cards(60)}</main>`;
  const sent: TimelineMessage[] = [];
  timeline = startPageTimeline(document, BUILT_IN_MASKER, { bufferSeconds: 15, send: (m) => sent.push(m), sliceMs: 0 });
  expect(timeline.checkpoint(LEAVE_PAGE_LABEL)).toBeNull();
  timeline.flush();
  for (let i = 0; i < 5; i++) await Promise.resolve();
  expect(sent).toEqual([]);
  // It goes on in slices, and ships as usual once whole.
  await started(sent);
  const { docs } = await kept(sent);
  expect(docs).toHaveLength(1);
});

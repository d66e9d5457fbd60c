// @vitest-environment happy-dom
import { afterEach, expect, it, vi } from 'vitest';
import { TimelineEntriesMessageSchema, TimelineStartMessageSchema, type TimelineEntriesMessage, type TimelineStartMessage } from '../../schemas/timeline';
import { BUILT_IN_MASKER } from '../redact/mask-text';
import { rebuildAll } from '../timeline-data/rebuild';
import { startPageTimeline, type PageTimeline } from './page-timeline';

let timeline: PageTimeline | null = null;
afterEach(() => timeline?.stop());

const started = async (sent: unknown[]) => vi.waitFor(() => expect(sent.some((m) => (m as { type: string }).type === 'timeline/start')).toBe(true));

it('sends the base once started, then batches of entries that rebuild every checkpoint, with a target for each action', async () => {
  document.body.innerHTML = '<p>Cart <span id="count">0</span></p><button id="add">Add to cart</button><input id="pw" type="password">';
  const sent: (TimelineStartMessage | TimelineEntriesMessage)[] = [];
  timeline = startPageTimeline(document, BUILT_IN_MASKER, { bufferSeconds: 15, send: (m) => sent.push(m) });
  expect(timeline.checkpoint('too early')).toBeNull();
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
  let first = 0;
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

import { describe, expect, it, vi } from 'vitest';
import { origin, setupRecorder, stepMessage, T0 } from '../../test/fakes/recorder';
import { screencastPort } from '../../test/fakes/recorder';
import { MemoryTimelineStorage } from '../../test/fakes/memory-timeline-storage';
import { TimelineKeeper } from '../timeline/store/timeline-keeper';
import { rebuildAll } from '../timeline/data/rebuild';

describe('MessageIntake (through the Recorder)', () => {
  it('records observed steps on the timeline with the sender’s tab and frame, and watches the tab', async () => {
    const { recorder, ports } = setupRecorder();
    await recorder.start();
    await recorder.handleMessage(stepMessage(), origin);
    const [step] = await ports.stepLog.between(7, 0, T0 + 1);
    expect(step).toMatchObject({ tab_id: 7, frame_id: 0, source: 'observer', action: 'type', value: 'hello' });
    expect(ports.watchTab).toHaveBeenCalledWith(7);
    recorder.loop.stop();
  });

  it('never stores a value the content script flagged as redacted', async () => {
    const { recorder, ports } = setupRecorder();
    await recorder.start();
    await recorder.handleMessage(stepMessage({ value: 'Hunter2!', value_redacted: true }), origin);
    expect((await ports.stepLog.between(7, 0, T0 + 1))[0]).toMatchObject({ value: null, value_redacted: true });
    recorder.loop.stop();
  });

  it.each([
    ['a string', 'fail'],
    ['an unknown type', { type: 'signal/teleport' }],
    ['a step without fields', { type: 'step/observed' }],
    ['a fail without reason', { type: 'agent/command', ts: T0, url: 'x', command: { kind: 'fail', label: 'x' } }],
  ])('drops %s with a logged warning and keeps working', async (_name, message) => {
    const { recorder, ports, log } = setupRecorder();
    await recorder.start();
    await recorder.handleMessage(message, origin);
    expect(log).toHaveBeenCalledWith(expect.stringMatching(/dropped a malformed message/));
    expect(ports.stepLog.size).toBe(0);
    await recorder.handleMessage(stepMessage(), origin);
    expect(ports.stepLog.size).toBe(1);
    recorder.loop.stop();
  });

  it('records a batch of steps in order, each with the sender’s tab and its own time', async () => {
    const { recorder, ports } = setupRecorder();
    await recorder.start();
    const steps = [stepMessage({ ts: T0 - 30, action: 'type' }), stepMessage({ ts: T0 - 20, kind: 'key', action: 'press Tab', value: null }), stepMessage({ ts: T0 - 10, kind: 'click', action: 'click', value: null })];
    await recorder.handleMessage({ type: 'step/batch', steps }, origin);
    const recorded = await ports.stepLog.between(7, 0, T0);
    expect(recorded.map((s) => [s.action, s.ts, s.tab_id, s.frame_id])).toEqual([
      ['type', T0 - 30, 7, 0],
      ['press Tab', T0 - 20, 7, 0],
      ['click', T0 - 10, 7, 0],
    ]);
    recorder.loop.stop();
  });

  it('keeps the valid steps of a batch holding a malformed one, with a logged warning', async () => {
    const { recorder, ports, log } = setupRecorder();
    await recorder.start();
    // Content scripts do not validate what they send: one step with a URL past the cap must not cost the others.
    const steps = [stepMessage({ ts: T0 - 20, action: 'first' }), stepMessage({ url: `https://example.test/${'x'.repeat(9000)}` }), { type: 'step/observed' }, stepMessage({ ts: T0 - 10, action: 'last' })];
    await recorder.handleMessage({ type: 'step/batch', steps }, origin);
    expect(log).toHaveBeenCalledWith(expect.stringMatching(/dropped a malformed message .*kept 2 of its steps/));
    expect((await ports.stepLog.between(7, 0, T0)).map((s) => s.action)).toEqual(['first', 'last']);
    expect(ports.watchTab).toHaveBeenCalledWith(7);
    recorder.loop.stop();
  });

  it('drops an empty batch, or one with no valid step, with a logged warning', async () => {
    const { recorder, ports, log, clock } = setupRecorder();
    await recorder.start();
    for (const message of [{ type: 'step/batch', steps: [{ type: 'step/observed' }] }, { type: 'step/batch', steps: [] }, { type: 'step/batch', steps: 'nope' }]) {
      await recorder.handleMessage(message, origin);
      clock.t += 10_000;
    }
    expect(log).toHaveBeenCalledTimes(3);
    expect(log).not.toHaveBeenCalledWith(expect.stringMatching(/kept/));
    expect(ports.stepLog.size).toBe(0);
    recorder.loop.stop();
  });

  it('logs a tab’s malformed messages at most once per 10 s, with the count dropped meanwhile', async () => {
    const { recorder, ports, log, clock } = setupRecorder();
    await recorder.start();
    for (let i = 0; i < 50; i++) {
      await recorder.handleMessage({ type: 'redaction/rects' }, origin);
      clock.t += 100;
    }
    await recorder.handleMessage({ type: 'redaction/rects' }, { ...origin, tabId: 8 });
    expect(log.mock.calls.map(([line]) => String(line))).toEqual([expect.stringMatching(/from tab 7/), expect.stringMatching(/from tab 8/)]);
    clock.t += 10_000;
    await recorder.handleMessage({ type: 'redaction/rects' }, origin);
    expect(String(log.mock.calls.at(-1)![0])).toMatch(/from tab 7.*49 more dropped without a warning/);
    await recorder.handleMessage(stepMessage(), origin);
    expect(ports.stepLog.size).toBe(1);
    recorder.loop.stop();
  });

  it("takes a page's regions at once, before the start, so a navigation that follows forgets them", async () => {
    const frames: string[] = [];
    const { recorder } = setupRecorder();
    const sources = (recorder as unknown as { frames: { updateRegions: (tabId: number) => void; handleNavigation: (tabId: number) => void } }).frames;
    vi.spyOn(sources, 'updateRegions').mockImplementation(() => void frames.push('regions'));
    vi.spyOn(sources, 'handleNavigation').mockImplementation(() => void frames.push('navigation'));
    const rects = { type: 'redaction/rects', ts: T0, url: 'https://shop.test/cart', viewport: { width: 800, height: 600 }, device_pixel_ratio: 1, rects: [] };
    const handled = recorder.handleMessage(rects, origin);
    recorder.handleNavigation(7);
    await handled;
    expect(frames).toEqual(['regions', 'navigation']);
    recorder.loop.stop();
  });

});

describe('MessageIntake: bursts of actions in auto capture', () => {
  it.each([
    { label: 'observed clicks back to back hold the screencast', kind: 'click', held: true },
    { label: 'navigations (a page and its frames loading) do not', kind: 'navigate', held: false },
  ])('$label', async ({ kind, held }) => {
    const screencast = screencastPort();
    const { recorder, clock, attached } = setupRecorder({ screencast });
    attached.add(7);
    await recorder.start();
    expect(screencast.start).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 4; i++) {
      await recorder.handleMessage(stepMessage({ ts: clock.t, kind, action: kind }), origin);
      clock.t += 120;
    }
    recorder.loop.stop();
    expect(screencast.stop).toHaveBeenCalledTimes(held ? 1 : 0);
  });
});

describe('MessageIntake: the DOM timeline', () => {
  const keeper = () => {
    const k = new TimelineKeeper(new MemoryTimelineStorage(), { now: () => T0 }, () => ({ windowMs: 15_000, maxBytes: 1 << 20 }), () => undefined);
    return { k, receive: vi.spyOn(k, 'receive') };
  };
  const start = (documentId = 'doc-1') => ({
    type: 'timeline/start',
    ts: T0,
    data: { version: 1, document_id: documentId, base: { at: T0, root: 1, records: [{ id: 1, tag: 'html' }], changes: 0, truncated: false }, entries: [], bytes: { base: 20, entries: 0 } },
  });

  it("keeps the top frame's timeline, and refuses one from a frame inside the page with a warning", async () => {
    const { k, receive } = keeper();
    const { recorder, log } = setupRecorder({ timeline: k });
    await recorder.start();
    await recorder.handleMessage(start(), origin);
    expect(receive).toHaveBeenCalledWith(7, expect.objectContaining({ type: 'timeline/start' }));
    expect((await k.documents(7, 0)).map((d) => d.document_id)).toEqual(['doc-1']);
    await recorder.handleMessage(start('doc-2'), { tabId: 7, frameId: 3 });
    expect(receive).toHaveBeenCalledTimes(1);
    expect(log).toHaveBeenCalledWith(expect.stringMatching(/only the top frame/));
    recorder.loop.stop();
  });

  it('refuses a timeline past its bounds before parsing it, and keeps working', async () => {
    const { k, receive } = keeper();
    const { recorder, log } = setupRecorder({ timeline: k });
    await recorder.start();
    const huge = start();
    huge.data.base.records = [{ id: 1, tag: 'html', text: 'x'.repeat(17 * 1024 * 1024) } as never];
    await recorder.handleMessage(huge, origin);
    expect(log).toHaveBeenCalledWith(expect.stringMatching(/over \d+ characters/));
    await recorder.handleMessage(start(), origin);
    expect(receive).toHaveBeenCalledTimes(1);
    recorder.loop.stop();
  });

  it("holds a tab's timeline messages to its quota of characters before parsing them, counting what it drops", async () => {
    const { k, receive } = keeper();
    const { recorder, log, afr } = setupRecorder({ timeline: k });
    await recorder.start();
    const big = () => {
      const m = start();
      m.data.base.records = [{ id: 1, tag: 'html', text: 'x'.repeat(4 * 1024 * 1024) } as never];
      return m;
    };
    // 16 Mi characters at once: three of these, not five.
    for (let i = 0; i < 5; i++) await recorder.handleMessage(big(), origin);
    expect((await afr.status()).pageLimits.timelineDropped).toBe(2);
    expect(log).toHaveBeenCalledWith(expect.stringMatching(/DOM timeline of tab 7 sends more than \d+ characters a second: a message of \d+ dropped/));
    // What the quota has left still takes a page of ordinary size.
    receive.mockClear();
    await recorder.handleMessage(start('doc-2'), origin);
    expect(receive).toHaveBeenCalledTimes(1);
    recorder.loop.stop();
  });

  it('drops the pages kept when the redaction rules change (they were masked by the old ones)', async () => {
    const { k } = keeper();
    const { recorder, afr } = setupRecorder({ timeline: k });
    await recorder.start();
    await recorder.handleMessage(start(), origin);
    await afr.configure({ bufferSeconds: 20 });
    expect(await k.documents(7, 0)).toHaveLength(1);
    await afr.configure({ redaction: { selectors: [], fieldNamePatterns: [], textPatterns: ['order-\\d+'] } });
    expect(await k.documents(7, 0)).toEqual([]);
    recorder.loop.stop();
  });

  it('puts a base sent in parts together; a malformed or out-of-order part is refused with a warning and recording goes on', async () => {
    const keeperLog = vi.fn();
    const k = new TimelineKeeper(new MemoryTimelineStorage(), { now: () => T0 }, () => ({ windowMs: 15_000, maxBytes: 1 << 20 }), keeperLog);
    const { recorder, log } = setupRecorder({ timeline: k });
    await recorder.start();
    const body = { id: 2, tag: 'body', children: [3] };
    const first = { ...start(), parts: 2 };
    first.data.base.records = [{ id: 1, tag: 'html', children: [2] } as never];
    const part = { type: 'timeline/base-part', document_id: 'doc-1', part: 1, parts: 2, records: [body, { id: 3, tag: 'p', text: 'hello' }] };
    // Malformed: refused by the schema (a part 0, a one-part base), nothing kept.
    await recorder.handleMessage({ ...part, part: 0 }, origin);
    await recorder.handleMessage({ ...first, parts: 1 }, origin);
    expect(log).toHaveBeenCalledWith(expect.stringMatching(/malformed message from tab 7: part/));
    // Out of order: the part before its start is refused, logged; the document is not kept.
    await recorder.handleMessage(part, origin);
    expect(keeperLog).toHaveBeenCalledWith(expect.stringMatching(/tab 7: part 1 of a base that is not waiting for it/));
    // In order: kept whole; from a frame inside the page: refused.
    await recorder.handleMessage(first, origin);
    await recorder.handleMessage(part, { tabId: 7, frameId: 2 });
    await recorder.handleMessage(part, origin);
    await recorder.handleMessage({ type: 'timeline/entries', document_id: 'doc-1', first: 0, entries: [{ kind: 'checkpoint', at: T0, seq: 0, label: 'load page', changes: 0, url: 'https://shop.test/', title: 'Shop', truncated: false }] }, origin);
    const [doc] = await k.documents(7, 0);
    expect(doc!.base.records.map((r) => r.id)).toEqual([1, 2, 3]);
    expect(rebuildAll(doc!)[0]!.node_count).toBe(3);
    recorder.loop.stop();
  });

  it('records no timeline below capture level trace', async () => {
    const { k, receive } = keeper();
    const { recorder } = setupRecorder({ timeline: k });
    await recorder.start();
    await recorder.ports.settingsStore.update({ captureLevel: 'metadata' });
    await recorder.handleMessage(start(), origin);
    expect(receive).not.toHaveBeenCalled();
    recorder.loop.stop();
  });
});

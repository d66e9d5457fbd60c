import { describe, expect, it } from 'vitest';
import { StepLog, mergeSteps } from './step-log';
import { MemoryStepStore } from '../../test/fakes/memory-step-store';
import { StepSchema, type Step, type StepDraft } from '../../schemas/steps';

const draft = (ts: number, action: string, over: Partial<StepDraft> = {}): StepDraft => ({
  ts,
  tab_id: 1,
  frame_id: 0,
  url: 'https://shop.test/',
  source: 'observer',
  kind: 'click',
  action,
  target: null,
  value: null,
  value_redacted: false,
  outcome: null,
  label: null,
  ...over,
});

const clockAt = (t: number) => ({ t, now() { return this.t; } });

describe('mergeSteps', () => {
  it('orders steps from several sources by time, then by arrival', () => {
    const s = (ts: number, seq: number, source: Step['source']): Step => ({ ...draft(ts, `${source}-${seq}`, { source }), seq });
    const observer = [s(100, 1, 'observer'), s(300, 4, 'observer')];
    const agent = [s(200, 3, 'agent'), s(100, 2, 'agent')];
    const recorder = [s(300, 5, 'recorder')];
    expect(mergeSteps(observer, agent, recorder).map((x) => x.action)).toEqual([
      'observer-1', 'agent-2', 'agent-3', 'observer-4', 'recorder-5',
    ]);
  });
});

describe('StepLog', () => {
  it('numbers steps, validates against the schema and returns a tab window in order', async () => {
    const timeline = new StepLog(new MemoryStepStore(), clockAt(10_000), { maxSteps: 100, maxAgeMs: 60_000 });
    await timeline.add(draft(9_000, 'late click'));
    await timeline.add(draft(8_000, 'early click'));
    await timeline.add(draft(8_500, 'other tab', { tab_id: 2 }));
    await timeline.add(draft(8_600, 'agent note', { tab_id: null, source: 'agent', kind: 'agent' }));
    const steps = await timeline.between(1, 7_000, 10_000);
    expect(steps.map((s) => s.action)).toEqual(['early click', 'agent note', 'late click']);
    for (const step of steps) expect(() => StepSchema.parse(step)).not.toThrow();
  });

  it('drops the oldest steps past the count and age limits', async () => {
    const clock = clockAt(100_000);
    const store = new MemoryStepStore();
    const timeline = new StepLog(store, clock, { maxSteps: 3, maxAgeMs: 50_000 });
    await timeline.add(draft(10_000, 'too old'));
    for (let i = 0; i < 5; i++) await timeline.add(draft(90_000 + i, `step ${i}`));
    expect(timeline.size).toBe(3);
    expect(store.rows.size).toBe(3);
    expect((await timeline.between(1, 0, 100_000)).map((s) => s.action)).toEqual(['step 2', 'step 3', 'step 4']);
  });

  it('resumes numbering after a restart', async () => {
    const store = new MemoryStepStore();
    const first = new StepLog(store, clockAt(1_000), { maxSteps: 10, maxAgeMs: 60_000 });
    await first.add(draft(900, 'a'));
    await first.add(draft(950, 'b'));
    const second = new StepLog(store, clockAt(1_000), { maxSteps: 10, maxAgeMs: 60_000 });
    const c = await second.add(draft(990, 'c'));
    expect(c.seq).toBe(3);
    expect((await second.between(1, 0, 1_000)).map((s) => s.action)).toEqual(['a', 'b', 'c']);
  });

  it('adds a batch in one store write, numbered in order, within the limits', async () => {
    const store = new MemoryStepStore();
    const writes: number[] = [];
    const put = store.put.bind(store);
    store.put = async (steps) => {
      writes.push(steps.length);
      await put(steps);
    };
    const timeline = new StepLog(store, clockAt(10_000), { maxSteps: 3, maxAgeMs: 60_000 });
    await timeline.add(draft(9_000, 'a'));
    const batch = await timeline.addAll([draft(9_100, 'b'), draft(9_100, 'c'), draft(9_200, 'd')]);
    expect(batch.map((s) => s.seq)).toEqual([2, 3, 4]);
    expect(writes).toEqual([1, 3]);
    expect((await timeline.between(1, 0, 10_000)).map((s) => s.action)).toEqual(['b', 'c', 'd']);
    expect([...store.rows.keys()].sort()).toEqual([2, 3, 4]);
  });

  it('keeps the steps a full store refuses, in memory, and reports the first refusal of each spell', async () => {
    const store = new MemoryStepStore();
    const quota = Object.assign(new Error(''), { name: 'QuotaExceededError' });
    const put = store.put.bind(store);
    let full = true;
    store.put = (steps) => (full ? Promise.reject(quota) : put(steps));
    store.delete = () => Promise.reject(quota);
    const errors: unknown[] = [];
    const timeline = new StepLog(store, clockAt(10_000), { maxSteps: 2, maxAgeMs: 60_000 }, (error) => errors.push(error));
    await timeline.add(draft(9_000, 'a'));
    await timeline.addAll([draft(9_100, 'b'), draft(9_200, 'c')]);
    expect((await timeline.between(1, 0, 10_000)).map((s) => s.action)).toEqual(['b', 'c']);
    expect(errors).toEqual([quota]);
    full = false;
    await timeline.add(draft(9_300, 'd')); // stored; its trim's delete fails: a new spell
    expect(errors).toEqual([quota, quota]);
    expect([...store.rows.keys()]).toEqual([4]);
  });
});

import { describe, expect, it } from 'vitest';
import type { Step } from '../../schemas/steps';
import { stepsToEvict } from './step-eviction';

let seq = 0;
/** A step of `tab` at `ts`; `who`: observed by a page, posted by a page (frame 0), the agent's own (`afr`), the recorder's. */
const step = (tab: number | null, ts: number, who: 'observed' | 'page' | 'agent' | 'recorder' = 'observed'): Step => ({
  seq: ++seq,
  ts,
  tab_id: tab,
  frame_id: who === 'agent' || who === 'recorder' ? null : 0,
  url: null,
  source: who === 'observed' ? 'observer' : who === 'recorder' ? 'recorder' : 'agent',
  kind: who === 'observed' ? 'click' : 'agent',
  action: `${who} ${tab} ${ts}`,
  target: null,
  value: null,
  value_redacted: false,
  outcome: null,
  label: null,
});
const actions = (steps: Step[], gone: Set<number>) => steps.filter((s) => gone.has(s.seq)).map((s) => s.action);
const flood = (tab: number, n: number, from = 100) => Array.from({ length: n }, (_, i) => step(tab, from + i));

describe('stepsToEvict', () => {
  it.each([
    {
      name: 'nothing within the limits',
      steps: () => [step(1, 10), step(2, 20)],
      limits: { maxSteps: 10, maxStepsPerTab: 5, maxAgeMs: 10_000 },
      want: [],
    },
    {
      name: 'steps older than the age, whatever the tab',
      steps: () => [step(1, 10), step(2, 500, 'agent'), step(2, 900)],
      limits: { maxSteps: 10, maxAgeMs: 9_200 },
      want: ['observed 1 10', 'agent 2 500'],
    },
    {
      name: "past a tab's own cap, that tab's oldest",
      steps: () => [step(1, 10), step(1, 20), step(1, 30), step(2, 5)],
      limits: { maxSteps: 10, maxStepsPerTab: 2, maxAgeMs: 10_000 },
      want: ['observed 1 10'],
    },
    {
      name: "within a tab, what the page sent goes before the agent's and the recorder's",
      steps: () => [step(1, 10, 'agent'), step(1, 15, 'recorder'), step(1, 20, 'page'), step(1, 30), step(1, 40)],
      limits: { maxSteps: 10, maxStepsPerTab: 3, maxAgeMs: 10_000 },
      want: ['page 1 20', 'observed 1 30'],
    },
    {
      name: 'past the total, the fullest tab gives up steps, not the older quiet one',
      steps: () => [step(1, 1, 'agent'), step(1, 2, 'agent'), ...flood(2, 6)],
      limits: { maxSteps: 5, maxStepsPerTab: 100, maxAgeMs: 10_000 },
      want: ['observed 2 100', 'observed 2 101', 'observed 2 102'],
    },
    {
      name: 'past the total with tabs even, the oldest of each in turn',
      steps: () => [...flood(1, 3, 10), ...flood(2, 3, 20)],
      limits: { maxSteps: 4, maxAgeMs: 10_000 },
      want: ['observed 1 10', 'observed 2 20'],
    },
  ])('$name', ({ steps, limits, want }) => {
    const list = steps();
    expect(actions(list, stepsToEvict(list, 10_000, limits)).sort()).toEqual([...want].sort());
  });

  it("a 2,000-step flood of one tab leaves another tab's agent steps", () => {
    const agent = [step(1, 50, 'agent'), step(1, 60, 'agent'), step(1, 70, 'recorder')];
    const list = [...agent, ...flood(2, 2_000)];
    const gone = stepsToEvict(list, 10_000, { maxSteps: 2_000, maxStepsPerTab: 1_000, maxAgeMs: 60_000 });
    expect(agent.some((s) => gone.has(s.seq))).toBe(false);
    expect(list.length - gone.size).toBe(1_003);
  });
});

import type { Step } from '../../schemas/steps';

/** How many steps the timeline keeps, and for how long. */
export interface StepLogLimits {
  /** All tabs together. */
  maxSteps: number;
  /** Each tab on its own (steps bound to no tab count as one more tab); default `maxSteps`. */
  maxStepsPerTab?: number;
  maxAgeMs: number;
}

/**
 * Steps a page sent: what the observer saw, and commands a page posted (they carry the frame they
 * came from). The agent's own (`afr`) and the recorder's steps outlast them.
 */
const pageSent = (s: Step): boolean => s.source === 'observer' || (s.source === 'agent' && s.frame_id !== null);

/** A tab's steps in the order they are evicted: page-sent ones first, then the rest, oldest first in each. */
const evictionOrder = (a: Step, b: Step): number => Number(pageSent(b)) - Number(pageSent(a)) || a.ts - b.ts || a.seq - b.seq;

/**
 * The seqs of the steps to evict: those older than `maxAgeMs`; past a tab's own cap, that tab's;
 * past the total, the tab holding the most gives up one at a time. So one tab's flood evicts its own
 * steps only, never another tab's while it holds more than that tab; and within a tab, what the page
 * sent goes before the agent's and the recorder's own steps.
 */
export function stepsToEvict(steps: readonly Step[], now: number, limits: StepLogLimits): Set<number> {
  const cutoff = now - limits.maxAgeMs;
  const perTab = limits.maxStepsPerTab ?? limits.maxSteps;
  const gone = new Set<number>();
  const byTab = new Map<number | null, Step[]>();
  for (const s of steps) {
    if (s.ts < cutoff) gone.add(s.seq);
    else byTab.set(s.tab_id, [...(byTab.get(s.tab_id) ?? []), s]);
  }
  // Each tab's queue in eviction order, with how far it has been taken from.
  const queues = [...byTab.values()].map((list) => ({ list: list.sort(evictionOrder), next: 0 }));
  const left = (q: { list: Step[]; next: number }) => q.list.length - q.next;
  let total = 0;
  for (const q of queues) {
    while (left(q) > perTab) gone.add(q.list[q.next++]!.seq);
    total += left(q);
  }
  for (; total > limits.maxSteps; total--) {
    const fullest = queues.reduce((a, b) => (left(b) > left(a) ? b : a));
    gone.add(fullest.list[fullest.next++]!.seq);
  }
  return gone;
}

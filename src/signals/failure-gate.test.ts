import { describe, expect, it } from 'vitest';
import { FailureGate } from './failure-gate';
import { decideSignal } from './signal-decision';

/** A signal of the tab asked at `at`, as the failure jobs ask it: the gate's state, the decision, the gate told. */
function admit(gate: FailureGate, tab: number | null, at: number, { ignoreCooldown = false } = {}): { admitted: true; suppressedBefore: number } | { admitted: false } {
  const gateFacts = gate.state(tab, at);
  const { outcome, reason } = decideSignal({ inScope: true, seen: null, byPage: false, unattended: false, explicit: ignoreCooldown, quotas: { page: true, signal: true }, gate: gateFacts });
  if (outcome === 'bundle' && reason !== 'after-packaging') return { admitted: true, suppressedBefore: gate.begin(tab, at) };
  gate.suppress(tab);
  return { admitted: false };
}

describe('FailureGate', () => {
  it.each([
    { name: 'first signal is admitted', events: [[1, 0]], want: [true] },
    { name: 'a storm inside the cooldown yields one bundle', events: [[1, 0, 'done'], [1, 100], [1, 5_000], [1, 9_999]], want: [true, false, false, false] },
    { name: 'after the cooldown a new bundle is allowed', events: [[1, 0, 'done'], [1, 10_000]], want: [true, true] },
    { name: 'tabs cool down separately', events: [[1, 0, 'done'], [2, 10]], want: [true, true] },
    { name: 'signals during packaging are dropped even after the cooldown', events: [[1, 0], [1, 20_000]], want: [true, false] },
    { name: 'signals with no tab share one key', events: [[null, 0, 'done'], [null, 50]], want: [true, false] },
  ] as { name: string; events: [number | null, number, 'done'?][]; want: boolean[] }[])('$name', ({ events, want }) => {
    const gate = new FailureGate(10_000);
    const got = events.map(([tab, at, done]) => {
      const verdict = admit(gate, tab, at);
      if (done && verdict.admitted) gate.done(tab);
      return verdict.admitted;
    });
    expect(got).toEqual(want);
  });

  it('lets an explicit agent request skip the cooldown but not a running packaging', () => {
    const gate = new FailureGate(10_000);
    admit(gate, 1, 0);
    expect(admit(gate, 1, 10, { ignoreCooldown: true }).admitted).toBe(false);
    gate.done(1);
    expect(admit(gate, 1, 20, { ignoreCooldown: true }).admitted).toBe(true);
  });

  it('reports how many signals were suppressed before the next bundle', () => {
    const gate = new FailureGate(1_000);
    admit(gate, 1, 0);
    gate.done(1);
    admit(gate, 1, 10);
    admit(gate, 1, 20);
    const next = admit(gate, 1, 2_000);
    expect(next).toEqual({ admitted: true, suppressedBefore: 2 });
  });

  it('forgets a closed tab: its cooldown and count, not a packaging still running', () => {
    const gate = new FailureGate(1_000);
    admit(gate, 1, 0);
    admit(gate, 1, 10);
    gate.forget(1);
    expect(admit(gate, 1, 20).admitted).toBe(false); // still packaging
    gate.done(1);
    expect(admit(gate, 1, 30)).toEqual({ admitted: true, suppressedBefore: 1 }); // within the cooldown of 0, forgotten
  });
});

import { describe, expect, it } from 'vitest';
import { BUNDLE_REFUSALS, comparedForEcho, decideSignal, gateRefusalText, type SeenSignalFacts, type SignalFacts, type SignalReason } from './signal-decision';

/** A signal the recorder saw, in scope, its rule bundling it, the quotas and the gate open. */
const seen = (over: Partial<SeenSignalFacts> = {}): SeenSignalFacts => ({ recordsTimeline: true, echo: false, rule: 'trigger', manual: false, longPast: false, ...over });
const facts = (over: Partial<SignalFacts> = {}): SignalFacts => ({
  inScope: true,
  seen: seen(),
  byPage: false,
  unattended: false,
  explicit: false,
  quotas: { page: true, signal: true },
  gate: { packaging: false, sinceLastMs: null, cooldownMs: 10_000 },
  ...over,
});
const asked = (over: Partial<SignalFacts> = {}) => facts({ seen: null, ...over });
const gate = (packaging: boolean, sinceLastMs: number | null) => ({ packaging, sinceLastMs, cooldownMs: 10_000 });

describe('decideSignal', () => {
  it.each([
    // The scope, for what the recorder saw and for what is asked.
    { name: 'a signal of a tab outside the scope', facts: facts({ inScope: false }), want: ['suppress', 'outside-scope'] },
    { name: 'a request about a tab outside the scope', facts: asked({ inScope: false, explicit: true }), want: ['suppress', 'outside-scope'] },
    // What the recorder saw: the recording mode, the other source, the rules, persistMode.
    { name: 'capture level off or paused', facts: facts({ seen: seen({ recordsTimeline: false, echo: true }) }), want: ['suppress', 'not-recording'] },
    { name: 'the other source reported this exception already', facts: facts({ seen: seen({ echo: true, rule: 'record' }) }), want: ['suppress', 'echo'] },
    { name: 'the rule ignores it', facts: facts({ seen: seen({ rule: 'ignore', manual: true }) }), want: ['suppress', 'rule-ignores'] },
    { name: 'the rule records it', facts: facts({ seen: seen({ rule: 'record', manual: true }) }), want: ['record', 'rule-records'] },
    { name: 'persistMode manual', facts: facts({ seen: seen({ manual: true, longPast: true }) }), want: ['record', 'manual'] },
    { name: 'an exception thrown long before it came', facts: facts({ seen: seen({ longPast: true }) }), want: ['record', 'long-past'] },
    { name: 'the rules do not apply to a request (manual: asked all the same)', facts: asked(), want: ['bundle', 'asked'] },
    // The rules say bundle: the quotas.
    { name: 'a page past its bundle quota', facts: asked({ byPage: true, quotas: { page: false, signal: false } }), want: ['suppress', 'page-quota'] },
    { name: 'a page within its quota', facts: asked({ byPage: true, quotas: { page: true, signal: false } }), want: ['bundle', 'asked'] },
    { name: 'the agent is not held to the page quota', facts: asked({ quotas: { page: false, signal: false } }), want: ['bundle', 'asked'] },
    { name: 'an unattended signal past its quota', facts: facts({ unattended: true, quotas: { page: true, signal: false }, gate: gate(true, 0) }), want: ['suppress', 'signal-quota'] },
    { name: 'an unattended crash past its quota', facts: facts({ unattended: true, explicit: true, quotas: { page: true, signal: false } }), want: ['suppress', 'signal-quota'] },
    { name: 'an unattended signal within its quota', facts: facts({ unattended: true, quotas: { page: false, signal: true } }), want: ['bundle', 'rule-bundles'] },
    // The failure gate.
    { name: 'the first signal of the tab', facts: facts(), want: ['bundle', 'rule-bundles'] },
    { name: 'a bundle of the tab being packaged', facts: facts({ gate: gate(true, 20_000) }), want: ['suppress', 'packaging'] },
    { name: 'an explicit request while the tab’s bundle is being packaged waits', facts: asked({ explicit: true, gate: gate(true, 5) }), want: ['bundle', 'after-packaging'] },
    { name: 'a crash while the tab’s bundle is being packaged waits', facts: facts({ explicit: true, gate: gate(true, 5) }), want: ['bundle', 'after-packaging'] },
    { name: 'a page’s request is never explicit: no wait', facts: asked({ byPage: true, explicit: true, gate: gate(true, 5) }), want: ['suppress', 'packaging'] },
    { name: 'within the cooldown', facts: facts({ gate: gate(false, 9_999) }), want: ['suppress', 'cooldown'] },
    { name: 'at the cooldown’s end', facts: facts({ gate: gate(false, 10_000) }), want: ['bundle', 'rule-bundles'] },
    { name: 'an explicit request skips the cooldown', facts: asked({ explicit: true, gate: gate(false, 5) }), want: ['bundle', 'asked'] },
    { name: 'a crash skips the cooldown', facts: facts({ explicit: true, gate: gate(false, 5) }), want: ['bundle', 'rule-bundles'] },
    { name: 'a page’s request within the cooldown, explicit or not', facts: asked({ byPage: true, explicit: true, gate: gate(false, 5) }), want: ['suppress', 'cooldown'] },
  ])('$name: $want', ({ facts: given, want: [outcome, reason] }) => {
    expect(decideSignal(given)).toEqual({ outcome, reason });
  });

  it('answers every reason with one outcome', () => {
    const outcomes = new Map<SignalReason, string>();
    const rows: SignalFacts[] = [
      facts({ inScope: false }),
      facts({ seen: seen({ recordsTimeline: false }) }),
      facts({ seen: seen({ echo: true }) }),
      facts({ seen: seen({ rule: 'ignore' }) }),
      facts({ seen: seen({ rule: 'record' }) }),
      facts({ seen: seen({ manual: true }) }),
      facts({ seen: seen({ longPast: true }) }),
      asked({ byPage: true, quotas: { page: false, signal: true } }),
      facts({ unattended: true, quotas: { page: true, signal: false } }),
      facts({ gate: gate(true, null) }),
      facts({ gate: gate(false, 1) }),
      facts(),
      asked(),
      asked({ explicit: true, gate: gate(true, null) }),
    ];
    for (const row of rows) {
      const { outcome, reason } = decideSignal(row);
      outcomes.set(reason, outcome);
    }
    expect(Object.fromEntries(outcomes)).toEqual({
      'outside-scope': 'suppress',
      'not-recording': 'suppress',
      echo: 'suppress',
      'rule-ignores': 'suppress',
      'rule-records': 'record',
      manual: 'record',
      'long-past': 'record',
      'page-quota': 'suppress',
      'signal-quota': 'suppress',
      packaging: 'suppress',
      cooldown: 'suppress',
      'rule-bundles': 'bundle',
      asked: 'bundle',
      'after-packaging': 'bundle',
    });
  });
});

describe('BUNDLE_REFUSALS', () => {
  it.each([
    ['page-quota', true],
    ['signal-quota', true],
    ['packaging', true],
    ['cooldown', true],
    ['outside-scope', false],
    ['not-recording', false],
    ['echo', false],
    ['rule-ignores', false],
  ] as [SignalReason, boolean][])('%s: a refused bundle (on the timeline as suppressed) %s', (reason, refused) => {
    expect(BUNDLE_REFUSALS.has(reason)).toBe(refused);
  });
});

describe('comparedForEcho', () => {
  it.each([
    ['outside-scope', false],
    ['not-recording', false],
    ['echo', true],
    ['rule-ignores', true],
    ['rule-records', true],
    ['cooldown', true],
    ['rule-bundles', true],
  ] as [SignalReason, boolean][])('%s: %s', (reason, compared) => {
    expect(comparedForEcho({ outcome: 'suppress', reason })).toBe(compared);
  });
});

describe('gateRefusalText', () => {
  it.each([
    { reason: 'packaging' as const, sinceLastMs: 300, want: 'a bundle for this tab is being packaged' },
    { reason: 'cooldown' as const, sinceLastMs: 300, want: 'cooldown: last bundle for this tab 300 ms ago' },
  ])('$reason', ({ reason, sinceLastMs, want }) => {
    expect(gateRefusalText(reason, { sinceLastMs })).toBe(want);
  });
});

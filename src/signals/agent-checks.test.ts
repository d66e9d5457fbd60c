import { describe, expect, it } from 'vitest';
import { DEFAULT_SIGNAL_RULES } from '../../schemas/signals';
import type { Step } from '../../schemas/steps';
import { noToolCallsSignal, toolCallSignals } from './agent-checks';

let seq = 0;
const step = (over: Partial<Step> = {}): Step => ({
  ts: 1000 + seq, seq: ++seq, tab_id: 1, frame_id: null, url: 'https://shop.test/', source: 'agent', kind: 'agent', action: 'act', target: null, value: null, value_redacted: false, outcome: null, label: null, ...over,
});
const tool = (status: 'ok' | 'error' | 'timeout' | 'skipped', latency?: number, error?: string) =>
  step({ kind: 'tool_call', action: 'tool search', detail: { call_status: status, ...(latency === undefined ? {} : { duration_ms: latency }), ...(error ? { error_text: error } : {}) } });
const rules = DEFAULT_SIGNAL_RULES;

describe('toolCallSignals', () => {
  it.each([
    ['ok and quick', tool('ok', 100), []],
    ['skipped', tool('skipped'), []],
    ['an error', tool('error', 100, 'HTTP 500'), [['tool_error', 'search error: HTTP 500']]],
    ['a timeout over the threshold', tool('timeout', 31_000), [['tool_error', 'search timeout'], ['tool_latency', 'search took 31000 ms (over 30000 ms)']]],
    ['ok but slow', tool('ok', 45_000), [['tool_latency', 'search took 45000 ms (over 30000 ms)']]],
    ['another kind of step', step(), []],
  ])('%s', (_name, s, expected) => {
    const signals = toolCallSignals(s, rules);
    expect(signals.map((r) => [r.kind, r.message])).toEqual(expected);
    for (const r of signals) expect(r).toMatchObject({ tabId: 1, pageUrl: 'https://shop.test/', origin: 'agent', request: null });
  });

  it('has no latency check without a threshold', () => {
    expect(toolCallSignals(tool('ok', 45_000), { tool_latency: { ...rules.tool_latency, thresholdMs: undefined } })).toEqual([]);
  });
});

describe('noToolCallsSignal', () => {
  const n = (count: number) => Array.from({ length: count }, () => step());
  const three = { no_tool_calls: { ...rules.no_tool_calls, steps: 3 } };

  it.each([
    ['the 3rd agent step after a tool call', [tool('ok'), ...n(3)], true],
    ['the 2nd', [tool('ok'), ...n(2)], false],
    ['the 4th (raised once, at the 3rd)', [tool('ok'), ...n(4)], false],
    ['steps of an agent that never reported a tool call', n(5), false],
    ['page-posted and observed steps do not count', [tool('ok'), step(), step({ frame_id: 0 }), step({ source: 'observer', kind: 'click' }), step()], false],
    ['a failed tool call also counts as a call', [tool('error'), ...n(3)], true],
  ])('%s: %s', (_name, timeline, raised) => {
    expect(noToolCallsSignal(timeline, three)?.kind ?? null).toBe(raised ? 'no_tool_calls' : null);
  });

  it('is not raised by a step that is not the agent\'s', () => {
    expect(noToolCallsSignal([tool('ok'), ...n(2), step({ source: 'observer', kind: 'click' })], three)).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import type { Step } from '../../schemas/steps';
import { agentCallTotals, layOutAgentCalls } from './agent-file';

const step = (seq: number, over: Partial<Step> = {}): Step => ({
  ts: 1000 + seq, seq, tab_id: 1, frame_id: null, url: null, source: 'agent', kind: 'agent', action: 'a', target: null, value: null, value_redacted: false, outcome: null, label: null, ...over,
});
const model = (seq: number, tokensIn: number | null, cost: number | null) =>
  step(seq, { kind: 'model_call', detail: { run_id: 'r' }, agent_call: { type: 'model', step_seq: 1, model: 'm', messages: [], tokens_in: tokensIn, tokens_out: null, latency_ms: null, temperature: null, max_tokens: null, cost_usd: cost } });
const tool = (seq: number, status: 'ok' | 'error' | 'timeout') =>
  step(seq, { kind: 'tool_call', detail: { run_id: 'r', call_status: status }, agent_call: { type: 'tool', step_seq: 1, tool: 't', input: { a: 1 }, status, latency_ms: 5, error: null } });

describe('layOutAgentCalls', () => {
  it('moves each call to agent.json and leaves a pointer on its step', () => {
    const { steps, agent } = layOutAgentCalls('b', [step(1), model(2, 10, 0.5), tool(3, 'timeout')]);
    expect(steps[0]).toEqual(step(1));
    expect(steps[1]).toMatchObject({ kind: 'model_call', call: { file: 'agent.json', list: 'model_calls', id: 'model-2' } });
    expect(steps[2]).toMatchObject({ kind: 'tool_call', call: { file: 'agent.json', list: 'tool_calls', id: 'tool-3' } });
    expect(steps.some((s) => 'agent_call' in s)).toBe(false);
    expect(agent).toEqual({
      version: 1,
      bundle_id: 'b',
      model_calls: [{ id: 'model-2', seq: 2, step_seq: 1, run_id: 'r', tab_id: 1, ts: 1002, model: 'm', messages: [], tokens_in: 10, tokens_out: null, latency_ms: null, temperature: null, max_tokens: null, cost_usd: 0.5 }],
      tool_calls: [{ id: 'tool-3', seq: 3, step_seq: 1, run_id: 'r', tab_id: 1, ts: 1003, tool: 't', input: { a: 1 }, status: 'timeout', latency_ms: 5, error: null }],
    });
  });

  it('gives no agent.json without calls', () => {
    expect(layOutAgentCalls('b', [step(1)]).agent).toBeNull();
  });
});

describe('agentCallTotals', () => {
  it('sums the figures given, leaves out those never given', () => {
    const { agent } = layOutAgentCalls('b', [model(1, 10, 0.1), model(2, null, 0.2), tool(3, 'error'), tool(4, 'ok')]);
    expect(agentCallTotals(agent)).toEqual({ model_calls: 2, tool_calls: 2, failed_tool_calls: 1, tokens_in: 10, cost_usd: 0.3 });
    expect(agentCallTotals(null)).toBeNull();
  });
});

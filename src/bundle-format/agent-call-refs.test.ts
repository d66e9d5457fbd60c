import { describe, expect, it } from 'vitest';
import type { AgentFile } from '../../schemas/agent-calls';
import { agentCallRefProblems } from './agent-call-refs';

const tool = { id: 'tool-3', seq: 3, step_seq: null, run_id: 'r', tab_id: 1, ts: 0, tool: 't', status: 'ok' as const, latency_ms: null, error: null };
const agent: AgentFile = { version: 1, bundle_id: 'b', model_calls: [], tool_calls: [tool] };
const ref = (id: string, list = 'tool_calls') => ({ file: 'agent.json', list, id });

describe('agentCallRefProblems', () => {
  it('accepts steps and calls that point at each other', () => {
    expect(agentCallRefProblems([{ seq: 1, kind: 'agent' }, { seq: 3, kind: 'tool_call', call: ref('tool-3') }], agent)).toEqual([]);
  });

  it.each([
    ['a step pointing at no call', [{ kind: 'tool_call', call: ref('tool-9') }, { kind: 'tool_call', call: ref('tool-3') }], agent, [{ pointer: '/steps/0/call', message: 'points at tool_calls tool-9, which agent.json does not hold' }]],
    ['the wrong list', [{ kind: 'tool_call', call: ref('tool-3', 'model_calls') }], agent, [{ pointer: '/steps/0/call', message: 'points at model_calls tool-3, which agent.json does not hold' }]],
    ['a call step without its call', [{ kind: 'model_call' }], null, [{ pointer: '/steps/0', message: 'a model_call step without its call' }]],
    ['a call no step points at', [], agent, [{ pointer: '', message: 'agent.json holds tool-3, which no step points at' }]],
    ['no agent.json', [{ kind: 'tool_call', call: ref('tool-3') }], null, [{ pointer: '/steps/0/call', message: 'points at tool_calls tool-3, which agent.json does not hold' }]],
  ])('reports %s', (_name, steps, file, problems) => {
    expect(agentCallRefProblems(steps, file)).toEqual(problems);
  });

  it('reads a malformed agent.json without throwing', () => {
    expect(agentCallRefProblems([], { tool_calls: 'x', model_calls: null } as unknown as AgentFile)).toEqual([]);
  });
});

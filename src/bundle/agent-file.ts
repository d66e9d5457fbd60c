import { AGENT_FILE_VERSION, type AgentCallTotals, type AgentFile, type ModelCallEntry, type ToolCallEntry } from '../../schemas/agent-calls';
import type { Step } from '../../schemas/steps';
import { agentCallId } from '../bundle-format/agent-call-refs';
import { AGENT_FILE } from '../bundle-format/file-names';

/**
 * The bundle's steps with each model or tool call moved out to `agent.json`: a call's step keeps its
 * place on the timeline and points at the call's entry (`call`), whose id is made of the step's seq.
 * `agent` is null when the window holds no call (the file is left out).
 */
export function layOutAgentCalls(bundleId: string, logged: readonly Step[]): { steps: Step[]; agent: AgentFile | null } {
  const tool_calls: ToolCallEntry[] = [];
  const model_calls: ModelCallEntry[] = [];
  const steps = logged.map((step): Step => {
    const { agent_call: call, ...rest } = step;
    if (!call) return step;
    const { type, step_seq, ...fields } = call;
    const id = agentCallId(type, step.seq);
    const place = { id, seq: step.seq, step_seq, run_id: step.detail?.run_id ?? '', tab_id: step.tab_id, ts: step.ts };
    if (type === 'tool') tool_calls.push({ ...place, ...(fields as Omit<ToolCallEntry, keyof typeof place>) });
    else model_calls.push({ ...place, ...(fields as Omit<ModelCallEntry, keyof typeof place>) });
    return { ...rest, call: { file: AGENT_FILE, list: type === 'tool' ? 'tool_calls' : 'model_calls', id } };
  });
  const agent = tool_calls.length + model_calls.length > 0 ? { version: AGENT_FILE_VERSION, bundle_id: bundleId, model_calls, tool_calls } : null;
  return { steps, agent };
}

/** Token and cost totals of the model calls, for `diagnostics.json` (only the figures the agent gave). */
export function agentCallTotals(agent: AgentFile | null): AgentCallTotals | null {
  if (!agent) return null;
  const sum = (pick: (c: ModelCallEntry) => number | null) => {
    const given = agent.model_calls.map(pick).filter((n): n is number => n !== null);
    return given.length > 0 ? given.reduce((a, b) => a + b, 0) : undefined;
  };
  const tokensIn = sum((c) => c.tokens_in);
  const tokensOut = sum((c) => c.tokens_out);
  const cost = sum((c) => c.cost_usd);
  return {
    model_calls: agent.model_calls.length,
    tool_calls: agent.tool_calls.length,
    failed_tool_calls: agent.tool_calls.filter((c) => c.status === 'error' || c.status === 'timeout').length,
    ...(tokensIn === undefined ? {} : { tokens_in: tokensIn }),
    ...(tokensOut === undefined ? {} : { tokens_out: tokensOut }),
    ...(cost === undefined ? {} : { cost_usd: Math.round(cost * 1e6) / 1e6 }),
  };
}

import type { SignalRules } from '../../schemas/signals';
import type { Step } from '../../schemas/steps';
import type { RawSignal } from './signal-rules';

/** The agent's own step (`afr.step`): from the agent, not posted by a page (no frame). */
const isAgentStep = (s: Step): boolean => s.source === 'agent' && s.kind === 'agent' && s.frame_id === null;

const raw = (kind: RawSignal['kind'], step: Step, message: string): RawSignal => ({
  kind,
  tabId: step.tab_id,
  pageUrl: step.url,
  ts: step.ts,
  message,
  stack: null,
  request: null,
  origin: 'agent',
});

/**
 * The signals of one tool call's step (`afr.toolCall`, masked): `tool_error` when it failed or timed
 * out, `tool_latency` when it took longer than the rule's threshold. Whether either is kept, recorded
 * or bundles is for the signal rules, like any other signal.
 */
export function toolCallSignals(step: Step, rules: Pick<SignalRules, 'tool_latency'>): RawSignal[] {
  if (step.kind !== 'tool_call' || !step.detail) return [];
  const { call_status: status, duration_ms: latency, error_text: error } = step.detail;
  const tool = step.action.replace(/^tool /, '');
  const out: RawSignal[] = [];
  if (status === 'error' || status === 'timeout') out.push(raw('tool_error', step, `${tool} ${status}${error ? `: ${error}` : ''}`));
  const threshold = rules.tool_latency.thresholdMs;
  if (threshold !== undefined && latency !== undefined && latency > threshold) out.push(raw('tool_latency', step, `${tool} took ${latency} ms (over ${threshold} ms)`));
  return out;
}

/**
 * `no_tool_calls` when the agent's step just added is the `steps`th of the agent's in a row without a
 * tool call between them, counted only once the agent has made a tool call on the timeline (an agent
 * that never reports its calls is not flagged), and raised once per run of steps (at the `steps`th).
 * `timeline`: the tab's steps in order, ending with the new one.
 */
export function noToolCallsSignal(timeline: readonly Step[], rules: Pick<SignalRules, 'no_tool_calls'>): RawSignal | null {
  const limit = rules.no_tool_calls.steps;
  const last = timeline.at(-1);
  if (limit === undefined || !last || !isAgentStep(last)) return null;
  let run = 0;
  for (let i = timeline.length - 1; i >= 0; i--) {
    const s = timeline[i]!;
    if (s.kind === 'tool_call') return run === limit ? raw('no_tool_calls', last, `${limit} agent steps in a row without a tool call`) : null;
    if (isAgentStep(s)) run++;
  }
  return null;
}

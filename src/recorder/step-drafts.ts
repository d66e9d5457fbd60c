import type { AgentCommand } from '../../schemas/agent';
import type { AgentCall } from '../../schemas/agent-calls';
import type { FailureSignal } from '../../schemas/failure';
import type { StepObservedMessage } from '../../schemas/messages';
import type { StepDetail, StepDraft } from '../../schemas/steps';

const base = (ts: number, tabId: number | null, frameId: number | null, url: string | null): Omit<StepDraft, 'source' | 'kind' | 'action'> => ({
  ts,
  tab_id: tabId,
  frame_id: frameId,
  url,
  target: null,
  value: null,
  value_redacted: false,
  outcome: null,
  label: null,
});

/** An action the content script observed. A value flagged as redacted is dropped here too. */
export function observedStep(m: StepObservedMessage, ts: number, tabId: number | null, frameId: number | null): StepDraft {
  const top = frameId === 0;
  return {
    ...base(ts, tabId, frameId, m.url),
    source: 'observer',
    kind: m.kind,
    action: m.action,
    target: top ? m.target : withoutPlace(m.target),
    value: m.value_redacted ? null : m.value,
    value_redacted: m.value_redacted,
    outcome: m.outcome,
    label: m.label,
    ...(m.synthetic ? { synthetic: true as const } : {}),
    // Only the top frame records the DOM timeline: a frame inside the page names no checkpoint of it.
    ...(top && m.checkpoint ? { checkpoint: m.checkpoint } : {}),
  };
}

/** A target without its place in the top page's timeline (node, rect, point). */
function withoutPlace(target: StepObservedMessage['target']): StepObservedMessage['target'] {
  if (target === null || typeof target === 'string') return target;
  const { node: _node, rect: _rect, point: _point, ...rest } = target;
  return rest;
}

const optional = <K extends string>(key: K, value: string | undefined) => (value === undefined ? {} : ({ [key]: value } as Record<K, string>));

/**
 * The timeline entry of an agent command (masked beforehand). A page's command carries the frame it
 * came from; the agent's own (`afr`) none, which tells them apart on the timeline.
 */
export function commandStep(c: AgentCommand, ts: number, tabId: number | null, url: string | null, runId: string, frameId: number | null = null): StepDraft {
  const b = { ...base(ts, tabId, frameId, url), source: 'agent' as const };
  switch (c.kind) {
    case 'step':
      return {
        ...b,
        kind: 'agent',
        action: c.action,
        target: c.target ?? null,
        outcome: c.outcome ?? null,
        label: c.label ?? null,
        ...optional('goal', c.goal),
        ...optional('reasoning', c.reasoning),
      };
    case 'assert': {
      const detail: StepDetail = { passed: c.passed, ...optional('expected', c.expected), ...optional('actual', c.actual) };
      return { ...b, kind: 'assert', action: `assert ${c.label}`, outcome: c.passed ? 'ok' : 'fail', label: c.label, ...optional('reasoning', c.reasoning), detail };
    }
    case 'mark':
      return { ...b, kind: 'mark', action: `mark ${c.label}`, label: c.label, ...optional('reasoning', c.reasoning) };
    case 'runStart':
      return {
        ...b,
        kind: 'run',
        action: 'run start',
        label: c.task ?? null,
        detail: { run_id: runId, ...optional('agent', c.agent), ...optional('agent_version', c.agentVersion), ...optional('task', c.task) },
      };
    case 'runEnd':
      return {
        ...b,
        kind: 'run',
        action: 'run end',
        outcome: c.outcome === undefined ? null : c.outcome === 'passed' ? 'ok' : 'fail',
        label: c.label ?? null,
        detail: { run_id: runId, ...(c.outcome ? { run_outcome: c.outcome } : {}) },
      };
    case 'fail':
      return { ...b, kind: 'agent', action: `fail: ${c.reason}`, outcome: 'fail', label: c.label ?? null };
  }
}

/** The timeline entry every signal leaves, bundled or not. */
export function signalStep(signal: FailureSignal, disposition: 'trigger' | 'record' | 'suppressed'): StepDraft {
  const r = signal.request;
  const detail: StepDetail = {
    signal_kind: signal.kind,
    disposition,
    ...(signal.message ? { message: signal.message } : {}),
    ...(signal.stack ? { stack: signal.stack } : {}),
    ...(r?.status != null ? { status: r.status } : {}),
    ...(r?.method ? { method: r.method } : {}),
    ...(r ? { request_url: r.url } : {}),
    ...(r?.resource_type ? { resource_type: r.resource_type } : {}),
    ...(r?.duration_ms != null ? { duration_ms: r.duration_ms } : {}),
    ...(r?.error_text ? { error_text: r.error_text } : {}),
    ...(r?.request_id ? { request_id: r.request_id } : {}),
    ...(r?.excerpt ? { excerpt: r.excerpt } : {}),
  };
  return {
    ...base(signal.ts, signal.tab_id, null, signal.url),
    source: 'recorder',
    kind: 'signal',
    action: `${disposition === 'trigger' ? 'failure' : 'signal'}: ${signal.reason}`,
    outcome: 'fail',
    label: signal.message,
    detail,
  };
}

/**
 * The timeline entry of an agent's model or tool call (masked beforehand), holding the call itself
 * until a bundle moves it to `agent.json`. A tool call that failed or timed out is a failed step.
 */
export function callStep(call: AgentCall, ts: number, tabId: number | null, url: string | null, runId: string): StepDraft {
  const b = { ...base(ts, tabId, null, url), source: 'agent' as const };
  const duration = call.latency_ms === null ? {} : { duration_ms: call.latency_ms };
  if (call.type === 'model') {
    return { ...b, kind: 'model_call', action: `model ${call.model}`, detail: { run_id: runId, ...duration }, agent_call: call };
  }
  const outcome = call.status === 'ok' ? 'ok' : call.status === 'skipped' ? null : 'fail';
  const detail: StepDetail = { run_id: runId, call_status: call.status, ...duration, ...(call.error === null ? {} : { error_text: call.error }) };
  return { ...b, kind: 'tool_call', action: `tool ${call.tool}`, outcome, label: call.status === 'ok' ? null : call.status, detail, agent_call: call };
}

import type { AgentFile } from '../../schemas/agent-calls';
import { AGENT_FILE } from './file-names';

/** The id of a call's entry in `agent.json`, from the `seq` of its step: `tool-12`, `model-9`. */
export const agentCallId = (type: 'tool' | 'model', seq: number): string => `${type}-${seq}`;

/** What in `steps.json` and `agent.json` does not agree: a step pointing at no call, a call no step points at. */
export function agentCallRefProblems(steps: readonly { seq?: unknown; kind?: unknown; call?: unknown }[], agent: AgentFile | null): { pointer: string; message: string }[] {
  const problems: { pointer: string; message: string }[] = [];
  const ids = new Map<string, 'tool_calls' | 'model_calls'>();
  // Read defensively: a file that failed its schema is still checked as far as its shape allows.
  const entries = (list: unknown): unknown[] => (Array.isArray(list) ? list : []);
  const idOf = (entry: unknown) => (typeof entry === 'object' && entry !== null ? String((entry as { id?: unknown }).id) : '');
  for (const c of entries(agent?.tool_calls)) ids.set(idOf(c), 'tool_calls');
  for (const c of entries(agent?.model_calls)) ids.set(idOf(c), 'model_calls');
  const pointed = new Set<string>();
  steps.forEach((step, i) => {
    const ref = step.call as { file?: unknown; list?: unknown; id?: unknown } | undefined;
    const isCall = step.kind === 'tool_call' || step.kind === 'model_call';
    if (!ref) {
      if (isCall) problems.push({ pointer: `/steps/${i}`, message: `a ${String(step.kind)} step without its call` });
      return;
    }
    const id = String(ref.id);
    pointed.add(id);
    if (ref.file !== AGENT_FILE || ids.get(id) !== ref.list) problems.push({ pointer: `/steps/${i}/call`, message: `points at ${String(ref.list)} ${id}, which ${AGENT_FILE} does not hold` });
  });
  for (const id of ids.keys()) if (!pointed.has(id)) problems.push({ pointer: '', message: `${AGENT_FILE} holds ${id}, which no step points at` });
  return problems;
}

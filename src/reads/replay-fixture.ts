import { AgentFileSchema, type AgentFile, type ModelCallEntry, type ToolCallEntry } from '../../schemas/agent-calls';
import { REPLAY_FIXTURE_VERSION, type ReplayFixture } from '../../schemas/replay-fixture';
import { canonicalHash } from '../shared/canonical-json';
import { BundleReadError } from './errors';
import type { BundleReader } from './open-bundle';

type Message = ReplayFixture['messages'][number];

const FIXTURE_STATUS = { ok: 'ok', skipped: 'soft_fail', timeout: 'soft_fail', error: 'hard_fail' } as const;

/** `agent_fail_YYYYMMDD_HHMMSS` of a time (UTC). */
export function fixtureId(ts: number): string {
  const iso = new Date(ts).toISOString();
  return `agent_fail_${iso.slice(0, 10).replace(/-/g, '')}_${iso.slice(11, 19).replace(/:/g, '')}`;
}

const sameMessage = (a: Message, b: Message) => a.role === b.role && a.content === b.content;

/**
 * The conversation of the model calls: each call's messages that the conversation so far does not
 * already end with as its history (agents send the whole history each time), then its response as the
 * assistant's message (JSON text when it is not a string).
 */
export function conversationOf(calls: readonly Pick<ModelCallEntry, 'messages' | 'response'>[]): Message[] {
  const out: Message[] = [];
  for (const call of calls) {
    const repeats = call.messages.length >= out.length && out.every((m, i) => sameMessage(m, call.messages[i]!));
    out.push(...(repeats ? call.messages.slice(out.length) : call.messages));
    if (call.response !== undefined) out.push({ role: 'assistant', content: typeof call.response === 'string' ? call.response : JSON.stringify(call.response) });
  }
  return out;
}

/** One tool call of the history: the hashes of its masked input and output (null when it had none). */
async function historyEntry(call: ToolCallEntry): Promise<ReplayFixture['tool_history'][number]> {
  return {
    tool: call.tool,
    args_hash: call.input === undefined ? null : await canonicalHash(call.input),
    result_hash: call.output === undefined ? null : await canonicalHash(call.output),
    latency_ms: call.latency_ms,
    status: FIXTURE_STATUS[call.status],
    call_status: call.status,
  };
}

/** What failed: the last tool call that failed or timed out, else the bundle's own failure. */
function failureOf(reader: BundleReader, agent: AgentFile | null): Pick<ReplayFixture, 'failure_type' | 'failure_signal'> {
  const failed = agent?.tool_calls.findLast((c) => c.status === 'error' || c.status === 'timeout');
  if (failed) {
    const after = failed.latency_ms === null ? '' : ` after ${failed.latency_ms} ms`;
    return { failure_type: `tool_${failed.status}`, failure_signal: `${failed.tool} ${failed.status}${after}${failed.error ? `: ${failed.error}` : ''}` };
  }
  const m = reader.manifest;
  return { failure_type: m.failure_reason, failure_signal: m.failure_message ?? m.failure_label ?? m.failure_reason };
}

/**
 * The bundle's failure as a replay fixture (`schemas/replay-fixture.ts`). A bundle without `agent.json`
 * gives an empty conversation and tool history; one whose `agent.json` is not shaped as this version
 * writes it is refused.
 */
export async function replayFixture(reader: BundleReader): Promise<ReplayFixture> {
  const raw = await reader.agent();
  let agent: AgentFile | null = null;
  if (raw) {
    const parsed = AgentFileSchema.safeParse(raw);
    if (!parsed.success) throw new BundleReadError(`agent.json is not shaped like this version's: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    agent = parsed.data;
  }
  const model = agent?.model_calls.at(-1);
  const m = reader.manifest;
  return {
    version: REPLAY_FIXTURE_VERSION,
    fixture_id: fixtureId(reader.failureTs),
    bundle_id: m.bundle_id,
    agent: m.run?.agent ?? null,
    agent_version: m.run?.agent_version ?? null,
    recorded_at: new Date(reader.failureTs).toISOString(),
    session_id: m.run_id,
    messages: conversationOf(agent?.model_calls ?? []),
    tool_history: await Promise.all((agent?.tool_calls ?? []).map(historyEntry)),
    context_env: { model: model?.model ?? null, temperature: model?.temperature ?? null, max_tokens: model?.max_tokens ?? null },
    ...failureOf(reader, agent),
    failure_reason: m.failure_reason,
  };
}

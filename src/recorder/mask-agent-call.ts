import { AGENT_CALL_LIMITS, type AgentCall, type ModelCallInput, type ToolCallInput } from '../../schemas/agent-calls';
import { maskJsonValue } from '../network/mask-json';
import { maskContext, type MaskContext } from '../network/withheld-value';
import type { TextMasker } from '../redact/mask-text';

/** A JSON value masked as a request body is: values under secret keys withheld, every other string and key through the masker. */
const maskJson = (value: unknown, ctx: MaskContext): unknown => (value === undefined ? undefined : maskJsonValue(value, ctx));

const text = (value: string | undefined, cap: number, ctx: MaskContext): string | null => (value === undefined ? null : ctx.masker.maskAndCap(value, cap, ctx.spans));

/** Leaves out the keys whose value is undefined (an absent input or output stays absent). */
const defined = <T extends Record<string, unknown>>(record: T): T => Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined)) as T;

/**
 * A tool call as the recorder stores it: the tool's name and error through the masker, its input and
 * output masked structurally (`maskJsonValue`: values under `password`, `api_key`, `authorization`…
 * withheld, every other string through the detectors and the custom patterns).
 */
export function maskToolCall(call: Omit<ToolCallInput, 'tabId'>, masker: TextMasker, stepSeq: number | null): AgentCall {
  const ctx = maskContext(masker);
  return defined({
    type: 'tool' as const,
    step_seq: stepSeq,
    tool: text(call.tool, AGENT_CALL_LIMITS.nameChars, ctx)!,
    input: maskJson(call.input, ctx),
    output: maskJson(call.output, ctx),
    status: call.status,
    latency_ms: call.latencyMs ?? null,
    error: text(call.error, AGENT_CALL_LIMITS.errorChars, ctx),
  });
}

/** A model call as the recorder stores it: each message's content through the masker, the response masked like a tool's output. */
export function maskModelCall(call: Omit<ModelCallInput, 'tabId'>, masker: TextMasker, stepSeq: number | null): AgentCall {
  const ctx = maskContext(masker);
  return defined({
    type: 'model' as const,
    step_seq: stepSeq,
    model: text(call.model, AGENT_CALL_LIMITS.nameChars, ctx)!,
    messages: (call.messages ?? []).map((m) => ({
      role: text(m.role, AGENT_CALL_LIMITS.roleChars, ctx)!,
      content: text(m.content, AGENT_CALL_LIMITS.messageChars, ctx)!,
    })),
    response: maskJson(call.response, ctx),
    tokens_in: call.tokensIn ?? null,
    tokens_out: call.tokensOut ?? null,
    latency_ms: call.latencyMs ?? null,
    temperature: call.temperature ?? null,
    max_tokens: call.maxTokens ?? null,
    cost_usd: call.costUsd ?? null,
  });
}

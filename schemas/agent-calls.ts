import { z } from 'zod';
import { jsonValueProblem, type JsonValueLimits } from './json-value';

/**
 * Caps on one model or tool call an agent records (`afr.toolCall`, `afr.modelCall`); longer input is
 * rejected, not truncated, so nothing is stored cut where a secret could be split.
 */
export const AGENT_CALL_LIMITS = {
  nameChars: 256,
  /** A tool's input or output, a model's response: characters of its JSON text, and nesting. */
  json: { maxChars: 256 * 1024, maxDepth: 32 } satisfies JsonValueLimits,
  errorChars: 16 * 1024,
  messages: 200,
  /** One message's content. */
  messageChars: 64 * 1024,
  /** All messages of a call together. */
  messagesChars: 512 * 1024,
  roleChars: 32,
} as const;

/** Any plain JSON value within the caps (checked without recursion: see `jsonValueProblem`). */
const jsonValue = z.unknown().superRefine((value, ctx) => {
  const problem = jsonValueProblem(value, AGENT_CALL_LIMITS.json);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

const name = z.string().min(1).max(AGENT_CALL_LIMITS.nameChars);
const latencyMs = z.number().nonnegative().max(24 * 3600 * 1000);
const tokens = z.number().int().nonnegative().max(1e9);

export const ToolCallStatusSchema = z.enum(['ok', 'error', 'timeout', 'skipped']);
export type ToolCallStatus = z.infer<typeof ToolCallStatusSchema>;

export const ModelMessageSchema = z
  .object({
    role: z.string().min(1).max(AGENT_CALL_LIMITS.roleChars),
    content: z.string().max(AGENT_CALL_LIMITS.messageChars),
  })
  .strict();

/** `afr.toolCall({ tabId?, tool, input?, output?, status, latencyMs?, error? })`: agent only (no page message). */
export const ToolCallInputSchema = z
  .object({
    tabId: z.number().int().optional(),
    tool: name,
    input: jsonValue.optional(),
    output: jsonValue.optional(),
    status: ToolCallStatusSchema,
    latencyMs: latencyMs.optional(),
    error: z.string().max(AGENT_CALL_LIMITS.errorChars).optional(),
  })
  .strict();
export type ToolCallInput = z.infer<typeof ToolCallInputSchema>;

/** `afr.modelCall({ tabId?, model, messages?, response?, tokensIn?, tokensOut?, latencyMs?, temperature?, maxTokens?, costUsd? })`: agent only. */
export const ModelCallInputSchema = z
  .object({
    tabId: z.number().int().optional(),
    model: name,
    messages: z
      .array(ModelMessageSchema)
      .max(AGENT_CALL_LIMITS.messages)
      .refine((list) => list.reduce((n, m) => n + m.content.length, 0) <= AGENT_CALL_LIMITS.messagesChars, {
        message: `messages exceed ${AGENT_CALL_LIMITS.messagesChars} characters in total`,
      })
      .optional(),
    response: jsonValue.optional(),
    tokensIn: tokens.optional(),
    tokensOut: tokens.optional(),
    latencyMs: latencyMs.optional(),
    temperature: z.number().min(0).max(10).optional(),
    maxTokens: tokens.optional(),
    /** What the call cost, in US dollars, when the agent knows. */
    costUsd: z.number().nonnegative().max(1e6).optional(),
  })
  .strict();
export type ModelCallInput = z.infer<typeof ModelCallInputSchema>;

/** Where a call was made: its own timeline entry, the agent's step it belongs to, the run. */
const callPlace = {
  /** The `seq` of the call's own entry in `steps.json`. */
  seq: z.number().int().nonnegative(),
  /** The `seq` of the agent's step current when the call was made (its latest `afr.step`), or null. */
  step_seq: z.number().int().nonnegative().nullable(),
  run_id: z.string(),
  tab_id: z.number().int().nullable(),
  /** Milliseconds since the Unix epoch, when the recorder was told of the call. */
  ts: z.number(),
};

/** One tool call as the recorder keeps it: masked (`input`/`output` structurally, every string through the masker). */
export const ToolCallRecordSchema = z
  .object({
    tool: z.string(),
    input: z.unknown().optional(),
    output: z.unknown().optional(),
    status: ToolCallStatusSchema,
    latency_ms: z.number().nullable(),
    error: z.string().nullable(),
  })
  .strict();
export type ToolCallRecord = z.infer<typeof ToolCallRecordSchema>;

/** One model call as the recorder keeps it: masked like a tool call. */
export const ModelCallRecordSchema = z
  .object({
    model: z.string(),
    messages: z.array(ModelMessageSchema),
    response: z.unknown().optional(),
    tokens_in: z.number().int().nullable(),
    tokens_out: z.number().int().nullable(),
    latency_ms: z.number().nullable(),
    temperature: z.number().nullable(),
    max_tokens: z.number().int().nullable(),
    cost_usd: z.number().nullable(),
  })
  .strict();
export type ModelCallRecord = z.infer<typeof ModelCallRecordSchema>;

/** A call as a step of the recorder's log carries it until a bundle lays it out in `agent.json`. */
export const AgentCallSchema = z.discriminatedUnion('type', [
  ToolCallRecordSchema.extend({ type: z.literal('tool'), step_seq: callPlace.step_seq }),
  ModelCallRecordSchema.extend({ type: z.literal('model'), step_seq: callPlace.step_seq }),
]);
export type AgentCall = z.infer<typeof AgentCallSchema>;

/** A call's entry in `agent.json`: `id` (`tool-<seq>`, `model-<seq>`), where it was made, and the call. */
export const ToolCallEntrySchema = ToolCallRecordSchema.extend({ id: z.string(), ...callPlace }).strict();
export const ModelCallEntrySchema = ModelCallRecordSchema.extend({ id: z.string(), ...callPlace }).strict();
export type ToolCallEntry = z.infer<typeof ToolCallEntrySchema>;
export type ModelCallEntry = z.infer<typeof ModelCallEntrySchema>;

/** Where a `tool_call` or `model_call` step of `steps.json` points into `agent.json`. */
export const AgentCallRefSchema = z
  .object({
    file: z.literal('agent.json'),
    list: z.enum(['tool_calls', 'model_calls']),
    id: z.string(),
  })
  .strict();
export type AgentCallRef = z.infer<typeof AgentCallRefSchema>;

export const AGENT_FILE_VERSION = 1 as const;

/** `agent.json`: the agent's model and tool calls in the bundle's window, masked, in timeline order. */
export const AgentFileSchema = z
  .object({
    version: z.literal(AGENT_FILE_VERSION),
    bundle_id: z.string(),
    model_calls: z.array(ModelCallEntrySchema),
    tool_calls: z.array(ToolCallEntrySchema),
  })
  .strict();
export type AgentFile = z.infer<typeof AgentFileSchema>;

/** `diagnostics.json` `agent_calls`: the calls in the window, and the model calls' tokens and cost where the agent gave them. */
export const AgentCallTotalsSchema = z
  .object({
    model_calls: z.number().int().nonnegative(),
    tool_calls: z.number().int().nonnegative(),
    /** Tool calls with status `error` or `timeout`. */
    failed_tool_calls: z.number().int().nonnegative(),
    tokens_in: z.number().int().nonnegative().optional(),
    tokens_out: z.number().int().nonnegative().optional(),
    cost_usd: z.number().nonnegative().optional(),
  })
  .strict();
export type AgentCallTotals = z.infer<typeof AgentCallTotalsSchema>;

import { z } from 'zod';

/** `sha256:<64 hex>` of the canonical JSON (keys sorted) of a masked value. */
const hash = z.string().regex(/^sha256:[0-9a-f]{64}$/);

/** A tool call's status as replay fixtures tell it: `ok`, `soft_fail` (timed out or skipped: the run went on), `hard_fail` (an error). */
export const FixtureToolStatusSchema = z.enum(['ok', 'soft_fail', 'hard_fail']);

export const REPLAY_FIXTURE_VERSION = 1 as const;

/**
 * `afr fixture <bundle.zip>`: the failure as a replay fixture, in the shape agent failure write-ups use:
 * the conversation, the tool history with the hashes of each call's masked arguments and result, the
 * model and its settings, and what failed. Everything in it comes from the bundle, so it is masked.
 */
export const ReplayFixtureSchema = z
  .object({
    version: z.literal(REPLAY_FIXTURE_VERSION),
    /** `agent_fail_YYYYMMDD_HHMMSS`, from the failure's time (UTC). */
    fixture_id: z.string().regex(/^agent_fail_\d{8}_\d{6}$/),
    /** The bundle it was made from. */
    bundle_id: z.string(),
    agent: z.string().nullable(),
    agent_version: z.string().nullable(),
    /** The failure's time, ISO 8601. */
    recorded_at: z.string(),
    /** The run's id. */
    session_id: z.string(),
    /** The conversation of the model calls, in order: each call's new messages, then its response as the assistant's. */
    messages: z.array(z.object({ role: z.string(), content: z.string() }).strict()),
    tool_history: z.array(
      z
        .object({
          tool: z.string(),
          /** Null when the call had no input (or no output). */
          args_hash: hash.nullable(),
          result_hash: hash.nullable(),
          latency_ms: z.number().nullable(),
          status: FixtureToolStatusSchema,
          /** The recorder's own status (`ok`, `error`, `timeout`, `skipped`). */
          call_status: z.enum(['ok', 'error', 'timeout', 'skipped']),
        })
        .strict(),
    ),
    /** The latest model call's model and settings; nulls when the agent recorded none. */
    context_env: z.object({ model: z.string().nullable(), temperature: z.number().nullable(), max_tokens: z.number().nullable() }).strict(),
    /** `tool_timeout` or `tool_error` for the last failing tool call, else the bundle's failure reason. */
    failure_type: z.string(),
    /** What failed, in words: the failing tool call, else the bundle's failure message. */
    failure_signal: z.string(),
    /** The bundle's own failure reason (`assertion_failed`, `tool_error`, `page_exception`…). */
    failure_reason: z.string(),
  })
  .strict();
export type ReplayFixture = z.infer<typeof ReplayFixtureSchema>;

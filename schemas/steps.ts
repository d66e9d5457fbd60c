import { z } from 'zod';
import { AgentCallRefSchema, AgentCallSchema, ToolCallStatusSchema } from './agent-calls';
import { CheckpointRefSchema, StepChangesSchema, TargetPlaceFields } from './timeline';

/** Where a step came from: the content script's action observer, the agent, or the recorder itself. */
export const StepSourceSchema = z.enum(['observer', 'agent', 'recorder']);

export const StepKindSchema = z.enum(['click', 'input', 'change', 'key', 'navigate', 'submit', 'agent', 'assert', 'mark', 'run', 'signal', 'tool_call', 'model_call']);

/** Structured facts of a step beyond its text: an assertion's values, a signal's request, a run's agent. */
export const StepDetailSchema = z
  .object({
    passed: z.boolean().optional(),
    expected: z.string().optional(),
    actual: z.string().optional(),
    signal_kind: z.string().optional(),
    disposition: z.enum(['trigger', 'record', 'suppressed']).optional(),
    message: z.string().optional(),
    stack: z.string().optional(),
    status: z.number().int().optional(),
    method: z.string().optional(),
    request_url: z.string().optional(),
    resource_type: z.string().optional(),
    duration_ms: z.number().optional(),
    error_text: z.string().optional(),
    /** A network signal's request: CDP's id, which its `network.har` entry carries as `_requestId`. */
    request_id: z.string().optional(),
    /** In a bundle: the index of the signal's request in `network.har`'s `log.entries`. */
    har_entry: z.number().int().nonnegative().optional(),
    /** `app_error`: the start of the answer that says it failed, masked. */
    excerpt: z.string().optional(),
    run_id: z.string().optional(),
    agent: z.string().optional(),
    agent_version: z.string().optional(),
    task: z.string().optional(),
    run_outcome: z.enum(['passed', 'failed']).optional(),
    /** A tool call's status (`tool_call` steps). */
    call_status: ToolCallStatusSchema.optional(),
  })
  .strict();
export type StepDetail = z.infer<typeof StepDetailSchema>;

/** A short description of the element an action touched; text is already redacted. */
export const StepTargetSchema = z
  .object({
    tag: z.string(),
    role: z.string().optional(),
    name: z.string().optional(),
    selector: z.string(),
    /** Capture level `trace` and up: the node hit in the step's snapshot, its rect and the pointer's point. */
    ...TargetPlaceFields,
  })
  .strict();

/** One entry of the timeline, as the recorder stores it and `steps.json` carries it. */
export const StepSchema = z
  .object({
    /** Milliseconds since the Unix epoch, wall clock of the machine. */
    ts: z.number(),
    /** Monotonic order in which the recorder received steps; ties on `ts` keep this order. */
    seq: z.number().int().nonnegative(),
    tab_id: z.number().int().nullable(),
    frame_id: z.number().int().nullable(),
    url: z.string().nullable(),
    source: StepSourceSchema,
    kind: StepKindSchema,
    /** Human readable action: `click`, `type`, `press Enter`, the agent's own words… */
    action: z.string(),
    target: z.union([StepTargetSchema, z.string()]).nullable(),
    /** Value typed into a field; null when the field is sensitive (`value_redacted`) or none applies. */
    value: z.string().nullable(),
    value_redacted: z.boolean(),
    outcome: z.enum(['ok', 'fail']).nullable(),
    label: z.string().nullable(),
    /** The agent's stated goal for this step (masked like page text). */
    goal: z.string().optional(),
    /** The agent's stated reasoning (masked like page text). */
    reasoning: z.string().optional(),
    detail: StepDetailSchema.optional(),
    /**
     * An observed step of an event the page's own script dispatched (`isTrusted: false`, e.g.
     * `element.click()`), not input from the browser (a person, Playwright, Puppeteer, CDP). Absent otherwise.
     */
    synthetic: z.literal(true).optional(),
    /** Capture level `trace` and up: the DOM timeline's checkpoint taken for this step (the page just before it). */
    checkpoint: CheckpointRefSchema.optional(),
    /** In a bundle: the file of `snapshots/` holding the page at this step. */
    snapshot: z.string().optional(),
    /** In a bundle: what changed from this step's page to the next one seen. */
    changes: StepChangesSchema.optional(),
    /** In a bundle, on a `tool_call` or `model_call` step: the call's entry in `agent.json`. */
    call: AgentCallRefSchema.optional(),
    /** In the recorder's log only, on a `tool_call` or `model_call` step: the masked call (a bundle moves it to `agent.json`). */
    agent_call: AgentCallSchema.optional(),
  })
  .strict();

export type Step = z.infer<typeof StepSchema>;
export type StepTarget = z.infer<typeof StepTargetSchema>;

/** A step before the recorder assigned its order number. */
export const StepDraftSchema = StepSchema.omit({ seq: true });
export type StepDraft = z.infer<typeof StepDraftSchema>;

export const STEPS_FILE_VERSION = 1;

/** `steps.json` */
export const StepsFileSchema = z
  .object({
    version: z.literal(STEPS_FILE_VERSION),
    bundle_id: z.string(),
    // A call itself lives in `agent.json`: a step still holding one is refused.
    steps: z.array(StepSchema.omit({ agent_call: true })),
  })
  .strict();
export type StepsFile = z.infer<typeof StepsFileSchema>;

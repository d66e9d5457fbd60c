import { z } from './zod-mini';

/** Character caps on what an agent may send; longer input is rejected, not truncated. */
export const AGENT_LIMITS = {
  reasonChars: 1024,
  labelChars: 1024,
  textChars: 16 * 1024,
  nameChars: 256,
} as const;

/** A string of `min` to `max` characters. */
const chars = (max: number, min = 0) => z.string().check(...(min > 0 ? [z.minLength(min)] : []), z.maxLength(max));
const label = chars(AGENT_LIMITS.labelChars);
const text = chars(AGENT_LIMITS.textChars);
const name = chars(AGENT_LIMITS.nameChars);

/**
 * What an agent can tell the recorder, from the page (`window.postMessage`) or from the automation
 * side (`afr.*`). Free text (goal, reasoning, labels) is masked like page text before it is stored.
 * In zod mini: content scripts parse the page's messages with them (see `zod-mini.ts`).
 */
export const AgentCommandFields = {
  step: {
    action: chars(AGENT_LIMITS.textChars, 1),
    target: z.optional(text),
    outcome: z.optional(z.enum(['ok', 'fail'])),
    label: z.optional(label),
    /** What the agent was trying to achieve. */
    goal: z.optional(text),
    /** The agent's stated reasoning for this step. */
    reasoning: z.optional(text),
  },
  assert: {
    label: chars(AGENT_LIMITS.labelChars, 1),
    passed: z.boolean(),
    expected: z.optional(text),
    actual: z.optional(text),
    reasoning: z.optional(text),
  },
  mark: {
    label: chars(AGENT_LIMITS.labelChars, 1),
    reasoning: z.optional(text),
  },
  runStart: {
    runId: z.optional(z.string().check(z.minLength(1), z.maxLength(128), z.regex(/^[\w.:-]+$/, 'letters, digits, _ . : - only'))),
    agent: z.optional(name),
    agentVersion: z.optional(name),
    task: z.optional(text),
  },
  runEnd: {
    outcome: z.optional(z.enum(['passed', 'failed'])),
    label: z.optional(label),
  },
  fail: {
    reason: chars(AGENT_LIMITS.reasonChars, 1),
    label: z.optional(label),
  },
} as const;

export type AgentCommandKind = keyof typeof AgentCommandFields;

// Pure (`@__NO_SIDE_EFFECTS__`): a bundle that does not use the command schemas (a content script) drops them.
/* @__NO_SIDE_EFFECTS__ */
const command = <K extends AgentCommandKind>(kind: K) => z.strictObject({ kind: z.literal(kind), ...AgentCommandFields[kind] });

/** One agent command, whatever its origin. */
export const AgentCommandSchema = z.discriminatedUnion('kind', [
  command('step'),
  command('assert'),
  command('mark'),
  command('runStart'),
  command('runEnd'),
  command('fail'),
]);
export type AgentCommand = z.infer<typeof AgentCommandSchema>;
export type AgentCommandOf<K extends AgentCommandKind> = Extract<AgentCommand, { kind: K }>;

/** `afr.<kind>(input)`: the command's fields plus the tab it is about (default: the visible tab). */
export const apiInputSchema = <K extends AgentCommandKind>(kind: K) =>
  z.strictObject({ tabId: z.optional(z.int()), ...AgentCommandFields[kind] });

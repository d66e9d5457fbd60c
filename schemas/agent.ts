import { z } from 'zod';

/** Character caps on what an agent may send; longer input is rejected, not truncated. */
export const AGENT_LIMITS = {
  reasonChars: 1024,
  labelChars: 1024,
  textChars: 16 * 1024,
  nameChars: 256,
} as const;

const label = z.string().max(AGENT_LIMITS.labelChars);
const text = z.string().max(AGENT_LIMITS.textChars);
const name = z.string().max(AGENT_LIMITS.nameChars);

/**
 * What an agent can tell the recorder, from the page (`window.postMessage`) or from the automation
 * side (`afr.*`). Free text (goal, reasoning, labels) is masked like page text before it is stored.
 */
export const AgentCommandFields = {
  step: {
    action: z.string().min(1).max(AGENT_LIMITS.textChars),
    target: text.optional(),
    outcome: z.enum(['ok', 'fail']).optional(),
    label: label.optional(),
    /** What the agent was trying to achieve. */
    goal: text.optional(),
    /** The agent's stated reasoning for this step. */
    reasoning: text.optional(),
  },
  assert: {
    label: z.string().min(1).max(AGENT_LIMITS.labelChars),
    passed: z.boolean(),
    expected: text.optional(),
    actual: text.optional(),
    reasoning: text.optional(),
  },
  mark: {
    label: z.string().min(1).max(AGENT_LIMITS.labelChars),
    reasoning: text.optional(),
  },
  runStart: {
    runId: z.string().min(1).max(128).regex(/^[\w.:-]+$/, 'letters, digits, _ . : - only').optional(),
    agent: name.optional(),
    agentVersion: name.optional(),
    task: text.optional(),
  },
  runEnd: {
    outcome: z.enum(['passed', 'failed']).optional(),
    label: label.optional(),
  },
  fail: {
    reason: z.string().min(1).max(AGENT_LIMITS.reasonChars),
    label: label.optional(),
  },
} as const;

export type AgentCommandKind = keyof typeof AgentCommandFields;

const command = <K extends AgentCommandKind>(kind: K) => z.object({ kind: z.literal(kind), ...AgentCommandFields[kind] }).strict();

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
  z.object({ tabId: z.number().int().optional(), ...AgentCommandFields[kind] }).strict();

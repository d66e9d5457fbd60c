import { z } from 'zod';
import { AGENT_LIMITS, AgentCommandFields } from './agent';

/** The `source` tag every page → recorder message carries. */
export const PAGE_PROTOCOL_SOURCE = 'agent-flight-recorder';

/** Caps on strings a page may send; longer messages are rejected, not truncated. */
export const PAGE_LIMITS = {
  reasonChars: AGENT_LIMITS.reasonChars,
  labelChars: AGENT_LIMITS.labelChars,
  stepChars: AGENT_LIMITS.textChars,
} as const;

const source = z.literal(PAGE_PROTOCOL_SOURCE);

/** `window.postMessage({ source: 'agent-flight-recorder', type: 'fail', reason, label? }, '*')` */
export const PageFailMessageSchema = z.object({ source, type: z.literal('fail'), ...AgentCommandFields.fail }).strict();

/** `window.postMessage({ source: 'agent-flight-recorder', type: 'step', action, target?, outcome?, label?, goal?, reasoning? }, '*')` */
export const PageStepMessageSchema = z
  .object({ source, type: z.literal('step'), ...AgentCommandFields.step })
  .strict()
  .refine(
    (m) => m.action.length + (m.target?.length ?? 0) + (m.label?.length ?? 0) <= PAGE_LIMITS.stepChars,
    { message: `step exceeds ${PAGE_LIMITS.stepChars} characters in total` },
  );

/** `{ type: 'assert', label, passed, expected?, actual?, reasoning? }` */
export const PageAssertMessageSchema = z.object({ source, type: z.literal('assert'), ...AgentCommandFields.assert }).strict();
/** `{ type: 'mark', label, reasoning? }` */
export const PageMarkMessageSchema = z.object({ source, type: z.literal('mark'), ...AgentCommandFields.mark }).strict();
/** `{ type: 'runStart', runId?, agent?, agentVersion?, task? }` */
export const PageRunStartMessageSchema = z.object({ source, type: z.literal('runStart'), ...AgentCommandFields.runStart }).strict();
/** `{ type: 'runEnd', outcome?: 'passed' | 'failed', label? }` */
export const PageRunEndMessageSchema = z.object({ source, type: z.literal('runEnd'), ...AgentCommandFields.runEnd }).strict();

export const PageMessageSchema = z.union([
  PageFailMessageSchema,
  PageStepMessageSchema,
  PageAssertMessageSchema,
  PageMarkMessageSchema,
  PageRunStartMessageSchema,
  PageRunEndMessageSchema,
]);
export type PageMessage = z.infer<typeof PageMessageSchema>;
export type PageFailMessage = z.infer<typeof PageFailMessageSchema>;
export type PageStepMessage = z.infer<typeof PageStepMessageSchema>;

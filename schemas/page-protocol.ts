import { z } from './zod-mini';
import { AGENT_LIMITS, AgentCommandFields } from './agent';

/** The `source` tag every page → recorder message carries. */
export const PAGE_PROTOCOL_SOURCE = 'agent-flight-recorder';

/** Caps on strings a page may send; longer messages are rejected, not truncated. */
export const PAGE_LIMITS = {
  reasonChars: AGENT_LIMITS.reasonChars,
  labelChars: AGENT_LIMITS.labelChars,
  stepChars: AGENT_LIMITS.textChars,
} as const;

// In zod mini: content scripts parse every page message with these (see `zod-mini.ts`).
const source = z.literal(PAGE_PROTOCOL_SOURCE);

/** `window.postMessage({ source: 'agent-flight-recorder', type: 'fail', reason, label? }, '*')` */
export const PageFailMessageSchema = z.strictObject({ source, type: z.literal('fail'), ...AgentCommandFields.fail });

/** `window.postMessage({ source: 'agent-flight-recorder', type: 'step', action, target?, outcome?, label?, goal?, reasoning? }, '*')` */
export const PageStepMessageSchema = z.strictObject({ source, type: z.literal('step'), ...AgentCommandFields.step }).check(
  z.refine((m) => m.action.length + (m.target?.length ?? 0) + (m.label?.length ?? 0) <= PAGE_LIMITS.stepChars, {
    message: `step exceeds ${PAGE_LIMITS.stepChars} characters in total`,
  }),
);

/** `{ type: 'assert', label, passed, expected?, actual?, reasoning? }` */
export const PageAssertMessageSchema = z.strictObject({ source, type: z.literal('assert'), ...AgentCommandFields.assert });
/** `{ type: 'mark', label, reasoning? }` */
export const PageMarkMessageSchema = z.strictObject({ source, type: z.literal('mark'), ...AgentCommandFields.mark });
/** `{ type: 'runStart', runId?, agent?, agentVersion?, task? }` */
export const PageRunStartMessageSchema = z.strictObject({ source, type: z.literal('runStart'), ...AgentCommandFields.runStart });
/** `{ type: 'runEnd', outcome?: 'passed' | 'failed', label? }` */
export const PageRunEndMessageSchema = z.strictObject({ source, type: z.literal('runEnd'), ...AgentCommandFields.runEnd });

/** Each message type's schema, for a rejection that names the field at fault (see `PageMessageSchema`). */
export const PAGE_MESSAGE_SCHEMAS = {
  fail: PageFailMessageSchema,
  step: PageStepMessageSchema,
  assert: PageAssertMessageSchema,
  mark: PageMarkMessageSchema,
  runStart: PageRunStartMessageSchema,
  runEnd: PageRunEndMessageSchema,
} as const;

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

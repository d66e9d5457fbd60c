import { z } from 'zod';

/** The `source` tag every page → recorder message carries. */
export const PAGE_PROTOCOL_SOURCE = 'agent-flight-recorder';

/** Byte caps on strings a page may send; longer messages are rejected, not truncated. */
export const PAGE_LIMITS = {
  reasonChars: 1024,
  labelChars: 1024,
  stepChars: 16 * 1024,
} as const;

const outcome = z.enum(['ok', 'fail']);

/** `window.postMessage({ source: 'agent-flight-recorder', type: 'fail', reason, label? }, '*')` */
export const PageFailMessageSchema = z
  .object({
    source: z.literal(PAGE_PROTOCOL_SOURCE),
    type: z.literal('fail'),
    reason: z.string().min(1).max(PAGE_LIMITS.reasonChars),
    label: z.string().max(PAGE_LIMITS.labelChars).optional(),
  })
  .strict();

/** `window.postMessage({ source: 'agent-flight-recorder', type: 'step', action, target?, outcome?, label? }, '*')` */
export const PageStepMessageSchema = z
  .object({
    source: z.literal(PAGE_PROTOCOL_SOURCE),
    type: z.literal('step'),
    action: z.string().min(1).max(PAGE_LIMITS.stepChars),
    target: z.string().max(PAGE_LIMITS.stepChars).optional(),
    outcome: outcome.optional(),
    label: z.string().max(PAGE_LIMITS.labelChars).optional(),
  })
  .strict()
  .refine(
    (m) => m.action.length + (m.target?.length ?? 0) + (m.label?.length ?? 0) <= PAGE_LIMITS.stepChars,
    { message: `step exceeds ${PAGE_LIMITS.stepChars} characters in total` },
  );

export const PageMessageSchema = z.union([PageFailMessageSchema, PageStepMessageSchema]);
export type PageMessage = z.infer<typeof PageMessageSchema>;
export type PageFailMessage = z.infer<typeof PageFailMessageSchema>;
export type PageStepMessage = z.infer<typeof PageStepMessageSchema>;

import { z } from 'zod';

/** Machine-readable failure reasons the recorder itself produces; agents may send any string. */
export const KNOWN_FAILURE_REASONS = ['page_exception', 'http_5xx', 'assertion_failed', 'agent_failure'] as const;

/** Where a failure signal came from. */
export const FailureOriginSchema = z.enum(['page', 'agent', 'debugger', 'web_request', 'page_fallback']);

/** A failure signal, normalised: what the recorder knows when it decides to make a bundle. */
export const FailureSignalSchema = z
  .object({
    reason: z.string().min(1).max(1024),
    label: z.string().max(1024).nullable(),
    origin: FailureOriginSchema,
    tab_id: z.number().int().nullable(),
    url: z.string().nullable(),
    ts: z.number(),
    message: z.string().max(16 * 1024).nullable(),
    stack: z.string().max(64 * 1024).nullable(),
    http_status: z.number().int().nullable(),
  })
  .strict();
export type FailureSignal = z.infer<typeof FailureSignalSchema>;

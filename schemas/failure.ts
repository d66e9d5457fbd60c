import { z } from 'zod';
import { SIGNAL_KINDS } from './signals';


/** What kind of failure: a signal kind, the agent's own `fail`, or a failed assertion. */
export const FailureKindSchema = z.enum([...SIGNAL_KINDS, 'fail', 'assertion']);

/** The request a network signal is about (URL with sensitive query values redacted). */
export const FailedRequestSchema = z
  .object({
    url: z.string(),
    method: z.string().nullable(),
    status: z.number().int().nullable(),
    resource_type: z.string().nullable(),
    duration_ms: z.number().nullable(),
    error_text: z.string().nullable(),
    /** CDP's id of the request (signals of the debugger): its `network.har` entry's `_requestId`. */
    request_id: z.string().max(128).optional(),
    /** `app_error`: the start of the answer that says it failed, masked (fields that say so first). */
    excerpt: z.string().max(1024).optional(),
  })
  .strict();
export type FailedRequest = z.infer<typeof FailedRequestSchema>;

/** Where a failure signal came from. */
export const FailureOriginSchema = z.enum(['page', 'agent', 'operator', 'debugger', 'web_request', 'page_fallback']);

/** A failure signal, normalised: what the recorder knows when it decides to make a bundle. */
export const FailureSignalSchema = z
  .object({
    kind: FailureKindSchema,
    reason: z.string().min(1).max(1024),
    label: z.string().max(1024).nullable(),
    origin: FailureOriginSchema,
    tab_id: z.number().int().nullable(),
    url: z.string().nullable(),
    ts: z.number(),
    message: z.string().max(16 * 1024).nullable(),
    stack: z.string().max(64 * 1024).nullable(),
    http_status: z.number().int().nullable(),
    request: FailedRequestSchema.nullable(),
  })
  .strict();
export type FailureSignal = z.infer<typeof FailureSignalSchema>;

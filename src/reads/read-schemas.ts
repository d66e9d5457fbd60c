import { z } from 'zod';
import { SnapshotNodeSchema } from '../../schemas/snapshot';
import { TolerantDiagnosticsSchema, TolerantStepsSchema } from '../bundle-format/tolerant-schemas';

/*
 * What the reads need beyond the summaries' tolerant schemas (`bundle-format/tolerant-schemas.ts`): a
 * step's own words (goal, reasoning, detail) and, when the recorder wrote them, its DOM references
 * (`snapshot`, `changes`) and the extra facts of its target (node id, box). Those come from a later
 * recorder: they are read as whatever JSON they hold, and shown bounded, never required.
 */

const step = TolerantStepsSchema.shape.steps.element;

/** A step's target: the element's description (extra keys kept, e.g. a timeline node id and rect), or a selector string. */
const TargetSchema = z
  .union([z.looseObject({ tag: z.string(), role: z.string().optional(), name: z.string().optional(), selector: z.string() }), z.string()])
  .nullable();

/** One step of `steps.json` with everything a reader may show of it. */
export const ReadStepSchema = step.extend({
  seq: z.number().optional(),
  url: z.string().nullable().optional(),
  target: TargetSchema,
  goal: z.string().optional(),
  reasoning: z.string().optional(),
  detail: z.record(z.string(), z.unknown()).optional(),
  synthetic: z.boolean().optional(),
  snapshot: z.unknown().optional(),
  changes: z.unknown().optional(),
  /** A model or tool call's entry in `agent.json`. */
  call: z.looseObject({ list: z.string(), id: z.string() }).optional(),
});
export type ReadStep = z.infer<typeof ReadStepSchema>;

export const ReadStepsSchema = z.object({ bundle_id: z.string(), steps: z.array(ReadStepSchema) });

/** `snapshot.json` with its tree, read as the strict node schema (the tree is what the outline walks). */
export const ReadSnapshotSchema = z.object({
  snapshot: z
    .looseObject({ url: z.string(), title: z.string(), taken_at: z.number().optional(), node_count: z.number(), truncated: z.boolean(), root: SnapshotNodeSchema })
    .nullable(),
  error: z.string().nullable(),
});
export type ReadSnapshot = z.infer<typeof ReadSnapshotSchema>;

const diagnostics = TolerantDiagnosticsSchema.shape;

/** `diagnostics.json` with the fields the console, requests and errors reads list (each optional: older bundles lack them). */
export const ReadDiagnosticsSchema = TolerantDiagnosticsSchema.extend({
  console_errors: z.array(z.object({ at: z.string(), message: z.string(), url: z.string().nullable().optional() })).optional(),
  failed_requests: z
    .array(diagnostics.failed_requests.unwrap().element.extend({ resource_type: z.string().nullable().optional(), duration_ms: z.number().nullable().optional() }))
    .optional(),
  signal_chain: z.array(z.object({ at: z.string(), kind: z.string(), disposition: z.string(), reason: z.string(), message: z.string().nullable() })).optional(),
});
export type ReadDiagnostics = z.infer<typeof ReadDiagnosticsSchema>;

/** `agent.json`, read for the entries the steps point at: each entry's id, the rest shown as the bundle has it. */
const callEntry = z.looseObject({ id: z.string() });
export const ReadAgentSchema = z.looseObject({ model_calls: z.array(callEntry), tool_calls: z.array(callEntry) });
export type ReadAgent = z.infer<typeof ReadAgentSchema>;

import { z } from 'zod';

export const RectSchema = z
  .object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() })
  .strict();
export type Rect = z.infer<typeof RectSchema>;

/** Why a field's value was withheld. */
export const RedactionKindSchema = z.enum([
  'password',
  'email',
  'tel',
  'credit_card',
  'one_time_code',
  'ssn',
  'cvv',
  'iban',
  'secret',
  'token',
  'pin',
  'hidden',
  /** Withheld by a custom redaction rule (selector or field-name pattern). */
  'custom',
]);
export type RedactionKind = z.infer<typeof RedactionKindSchema>;

/**
 * What text masking replaced inside text nodes and free-text values. `credential`: a password,
 * token, key or authorization value (`[credential]`).
 */
export const TextMaskKindSchema = z.enum(['email', 'phone', 'card_number', 'ssn', 'credential', 'custom']);
export type TextMaskKind = z.infer<typeof TextMaskKindSchema>;

export interface SnapshotNode {
  tag: string;
  role?: string;
  name?: string;
  text?: string;
  attributes?: Record<string, string>;
  rect?: Rect;
  value?: string | null;
  value_redacted?: boolean;
  redaction_kind?: RedactionKind;
  checked?: boolean;
  shadow_root?: boolean;
  frame?: 'same-origin' | 'cross-origin';
  children?: SnapshotNode[];
}

/**
 * An element's own fields, as the snapshot and the DOM timeline (`timeline.ts`) both record them:
 * text already masked, sensitive values null. Neither the rect nor the children: each adds its own.
 */
export const SNAPSHOT_NODE_FIELDS = {
  tag: z.string(),
  role: z.string().optional(),
  name: z.string().optional(),
  text: z.string().optional(),
  attributes: z.record(z.string(), z.string()).optional(),
  value: z.string().nullable().optional(),
  value_redacted: z.boolean().optional(),
  redaction_kind: RedactionKindSchema.optional(),
  checked: z.boolean().optional(),
  /** The children listed under this node come from its open shadow root. */
  shadow_root: z.boolean().optional(),
  /** This node is an iframe; a same-origin document is recorded as its child. */
  frame: z.enum(['same-origin', 'cross-origin']).optional(),
};

/** One element of the DOM snapshot tree. Text is already masked; sensitive values are null. */
export const SnapshotNodeSchema: z.ZodType<SnapshotNode> = z.lazy(() =>
  z
    .object({
      ...SNAPSHOT_NODE_FIELDS,
      rect: RectSchema.optional(),
      children: z.array(SnapshotNodeSchema).optional(),
    })
    .strict(),
);

/** Counts of what redaction withheld, by kind. */
export const RedactionCountsSchema = z
  .object({
    fields: z.partialRecord(RedactionKindSchema, z.number().int().nonnegative()),
    text: z.partialRecord(TextMaskKindSchema, z.number().int().nonnegative()),
  })
  .strict();
export type RedactionCounts = z.infer<typeof RedactionCountsSchema>;

/** A page's snapshot as the content script produces it. */
export const PageSnapshotSchema = z
  .object({
    url: z.string(),
    title: z.string(),
    taken_at: z.number(),
    viewport: z.object({ width: z.number(), height: z.number(), scroll_x: z.number(), scroll_y: z.number() }).strict(),
    node_count: z.number().int().nonnegative(),
    truncated: z.boolean(),
    root: SnapshotNodeSchema,
    redaction: RedactionCountsSchema,
  })
  .strict();
export type PageSnapshot = z.infer<typeof PageSnapshotSchema>;

export const SNAPSHOT_FILE_VERSION = 1;

/** `snapshot.json`: the page at the moment of failure, or why no snapshot could be taken. */
export const SnapshotFileSchema = z
  .object({
    version: z.literal(SNAPSHOT_FILE_VERSION),
    bundle_id: z.string(),
    snapshot: PageSnapshotSchema.nullable(),
    error: z.string().nullable(),
    /**
     * When the failure page is a fresh document (a navigation replaced the page the agent acted on):
     * the file of `snapshots/` holding the last state of the document before it.
     */
    previous: z.string().optional(),
  })
  .strict();
export type SnapshotFile = z.infer<typeof SnapshotFileSchema>;

import { z } from 'zod';
import { RectSchema, SNAPSHOT_NODE_FIELDS } from './snapshot';
import { TIMELINE_LIMITS, TIMELINE_VERSION } from './content-port';

/**
 * The DOM timeline: a redacted base snapshot of one document, then the changes seen by a
 * `MutationObserver` (and `input`/`change` events), with checkpoints before each action or step.
 * Nodes carry the same fields as `snapshot.json`'s nodes (already masked, sensitive values null),
 * without rects (layout moves are not observed; the target of an action carries its own rect),
 * plus a stable `id` within the document.
 */

/** Ids are positive integers, unique within one recorded document. */
export const TimelineNodeIdSchema = z.number().int().positive();

const nodeFields = { id: TimelineNodeIdSchema, ...SNAPSHOT_NODE_FIELDS };

/** One element as the timeline stores it: its own fields and its children's ids, in order. */
export const TimelineRecordSchema = z.object({ ...nodeFields, children: z.array(TimelineNodeIdSchema).optional() }).strict();
export type TimelineRecord = z.infer<typeof TimelineRecordSchema>;

/** An element's own fields, without its children. */
export type TimelineFields = Omit<TimelineRecord, 'children'>;

/** A node's children changed: the new list in order, and the records of the subtrees added. */
export const ChildrenChangeSchema = z
  .object({
    kind: z.literal('children'),
    at: z.number(),
    id: TimelineNodeIdSchema,
    children: z.array(TimelineNodeIdSchema),
    added: z.array(TimelineRecordSchema),
  })
  .strict();

/** A node's own fields changed (text, attributes, name, value state): its new fields, whole. */
export const FieldsChangeSchema = z
  .object({ kind: z.literal('fields'), at: z.number(), node: TimelineRecordSchema.omit({ children: true }) })
  .strict();

/**
 * A marker before an action or step, or as the document is left. `changes` counts every change
 * recorded in the document so far: two checkpoints with the same count show the same page.
 */
export const CheckpointSchema = z
  .object({
    kind: z.literal('checkpoint'),
    at: z.number(),
    seq: z.number().int().nonnegative(),
    label: z.string(),
    changes: z.number().int().nonnegative(),
    url: z.string(),
    title: z.string(),
    /** Some of the page was left out (byte budget, depth). */
    truncated: z.boolean(),
    /**
     * Asked for at this time, while the document's first snapshot was still being taken (a big page,
     * taken in slices): the checkpoint waited for it, so its page is the page at `at`, when the first
     * snapshot was whole: what the step saw plus what changed until then.
     */
    asked_at: z.number().optional(),
  })
  .strict();
export type Checkpoint = z.infer<typeof CheckpointSchema>;

export const TimelineEntrySchema = z.discriminatedUnion('kind', [ChildrenChangeSchema, FieldsChangeSchema, CheckpointSchema]);
export type TimelineEntry = z.infer<typeof TimelineEntrySchema>;
export type TimelineChange = Exclude<TimelineEntry, Checkpoint>;

export { TIMELINE_VERSION };

/** One document's timeline as the recorder hands it over: base, then entries in time order. */
export const TimelineDataSchema = z
  .object({
    version: z.literal(TIMELINE_VERSION),
    /** Unique per recorded document: node ids of two documents are unrelated. */
    document_id: z.string(),
    base: z
      .object({
        /** When the base holds the page: the document's start, or the last change evicted into it. */
        at: z.number(),
        root: TimelineNodeIdSchema,
        records: z.array(TimelineRecordSchema),
        /** Changes counted up to the base (evicted ones included). */
        changes: z.number().int().nonnegative(),
        truncated: z.boolean(),
      })
      .strict(),
    entries: z.array(TimelineEntrySchema),
    /** Estimated bytes of the base and of the entries (UTF-16 code units of their JSON, approximately). */
    bytes: z.object({ base: z.number().int().nonnegative(), entries: z.number().int().nonnegative() }).strict(),
  })
  .strict();
export type TimelineData = z.infer<typeof TimelineDataSchema>;

export interface TimelineNode extends TimelineFields {
  children?: TimelineNode[];
}

/** One element of a rebuilt page: a `snapshot.json` node without its rect, with its timeline id. */
export const TimelineNodeSchema: z.ZodType<TimelineNode> = z.lazy(() =>
  z.object({ ...nodeFields, children: z.array(TimelineNodeSchema).optional() }).strict(),
);

/** The page at one checkpoint, rebuilt from the base and the changes up to it. */
export const TimelineSnapshotSchema = z
  .object({
    document_id: z.string(),
    checkpoint: z.number().int().nonnegative(),
    label: z.string(),
    at: z.number(),
    url: z.string(),
    title: z.string(),
    /** Same count at two checkpoints of one document: the same page. */
    changes: z.number().int().nonnegative(),
    node_count: z.number().int().nonnegative(),
    truncated: z.boolean(),
    /** The checkpoint was asked for at this time, before the first snapshot of a big page was whole; the page is as it was at `at` (see the checkpoint's `asked_at`). */
    asked_at: z.number().optional(),
    root: TimelineNodeSchema,
  })
  .strict();
export type TimelineSnapshot = z.infer<typeof TimelineSnapshotSchema>;

/** How a node is named in a diff: tag, role, and a short masked label (name or text). */
export const DiffNodeSchema = z
  .object({
    id: TimelineNodeIdSchema,
    tag: z.string(),
    role: z.string().optional(),
    label: z.string().optional(),
    /** Elements in its subtree, itself included. */
    size: z.number().int().positive(),
    /** The notable elements inside it (forms, headings, dialogs, alerts), at most a few. */
    notable: z.array(z.object({ tag: z.string(), role: z.string().optional(), label: z.string().optional() }).strict()).optional(),
  })
  .strict();
export type DiffNode = z.infer<typeof DiffNodeSchema>;

const fromTo = <T extends z.ZodType>(t: T) => ({ from: t, to: t });

/** What changed between two checkpoints; redacted values only ever appear as redacted. */
export const TimelineDiffSchema = z
  .object({
    from_checkpoint: z.number().int().nonnegative(),
    to_checkpoint: z.number().int().nonnegative(),
    /** The second page is another document (a navigation): everything was replaced. */
    new_document: z.boolean(),
    url: z.object(fromTo(z.string())).strict().optional(),
    added: z.array(DiffNodeSchema.extend({ parent: TimelineNodeIdSchema.nullable() })),
    removed: z.array(DiffNodeSchema),
    text: z.array(z.object({ id: TimelineNodeIdSchema, tag: z.string(), label: z.string().optional(), ...fromTo(z.string()) }).strict()),
    attributes: z.array(
      z.object({ id: TimelineNodeIdSchema, tag: z.string(), label: z.string().optional(), attribute: z.string(), ...fromTo(z.string().nullable()) }).strict(),
    ),
    /** A field's value or checked state changed; `redacted` fields say only that the state changed. */
    values: z.array(
      z
        .object({
          id: TimelineNodeIdSchema,
          tag: z.string(),
          label: z.string().optional(),
          redacted: z.boolean(),
          // Described, so the JSON Schema reads `anyOf` (strict JSON Schema validators refuse a union of types).
          ...fromTo(z.union([z.string(), z.boolean().meta({ description: 'checked state' })]).nullable()),
        })
        .strict(),
    ),
  })
  .strict();
export type TimelineDiff = z.infer<typeof TimelineDiffSchema>;

/** What an action hit: its node in the timeline and its box in the viewport (CSS pixels). */
export const TimelineTargetSchema = z.object({ node_id: TimelineNodeIdSchema.nullable(), rect: RectSchema.nullable() }).strict();
export type TimelineTarget = z.infer<typeof TimelineTargetSchema>;

/** Where a step's page is in the timeline: the document and the checkpoint taken for it. */
export const CheckpointRefSchema = z.object({ document_id: z.string().max(100), seq: z.number().int().nonnegative() }).strict();
export type CheckpointRef = z.infer<typeof CheckpointRefSchema>;

/**
 * What an observed action hit, as a step carries it: the node in the timeline, the element's box in
 * the viewport and, for pointer actions, the point (CSS pixels).
 */
export const TargetPlaceFields = {
  node: TimelineNodeIdSchema.optional(),
  rect: RectSchema.optional(),
  point: z.object({ x: z.number(), y: z.number() }).strict().optional(),
};

/** Where an action happened, as the content script hands it to its step: the checkpoint and the target's place. */
export interface ActionPlace {
  checkpoint: CheckpointRef;
  node?: number;
  rect?: z.infer<typeof RectSchema>;
  point?: { x: number; y: number };
}

/**
 * Content script (top frame) → background: a document's timeline starts, with its base (the first
 * snapshot, taken in slices at document start) and any entries already recorded. A big base comes in
 * `parts` messages: this one holds the first records, `timeline/base-part` messages the rest, each
 * posted in a task of its own (posting clones a message on the page's main thread, in one go).
 */
export const TimelineStartMessageSchema = z
  .object({
    type: z.literal('timeline/start'),
    ts: z.number(),
    data: TimelineDataSchema.extend({
      base: TimelineDataSchema.shape.base.extend({ records: z.array(TimelineRecordSchema).max(TIMELINE_LIMITS.records) }),
      entries: z.array(TimelineEntrySchema).max(TIMELINE_LIMITS.batchEntries),
    }),
    /** The base's records come in this many messages, this one first (absent: all of them are here). */
    parts: z.number().int().min(2).max(TIMELINE_LIMITS.baseParts).optional(),
  })
  .strict();
export type TimelineStartMessage = z.infer<typeof TimelineStartMessageSchema>;

/**
 * Content script (top frame) → background: more records of a document's base, after its
 * `timeline/start` (`part` 1 to `parts` - 1, in order, before any `timeline/entries` of the document).
 * The worker keeps the document once its last part came; a part out of order or missing drops it.
 */
export const TimelineBasePartMessageSchema = z
  .object({
    type: z.literal('timeline/base-part'),
    document_id: z.string().max(100),
    part: z.number().int().min(1),
    parts: z.number().int().min(2).max(TIMELINE_LIMITS.baseParts),
    records: z.array(TimelineRecordSchema).min(1).max(TIMELINE_LIMITS.records),
  })
  .strict();
export type TimelineBasePartMessage = z.infer<typeof TimelineBasePartMessageSchema>;

/** What a top frame sends of its DOM timeline. */
export type TimelineMessage = TimelineStartMessage | TimelineBasePartMessage | TimelineEntriesMessage;

/**
 * Content script (top frame) → background: the entries recorded since the last message, in order.
 * `first` counts the document's entries sent before these (the worker drops a batch after a gap).
 */
export const TimelineEntriesMessageSchema = z
  .object({
    type: z.literal('timeline/entries'),
    document_id: z.string().max(100),
    first: z.number().int().nonnegative(),
    entries: z.array(TimelineEntrySchema).min(1).max(TIMELINE_LIMITS.batchEntries),
  })
  .strict();
export type TimelineEntriesMessage = z.infer<typeof TimelineEntriesMessageSchema>;

export const STEP_SNAPSHOT_FILE_VERSION = 1;

/**
 * `snapshots/<name>.json`: the page as it was at a step (rebuilt whole from the timeline), written
 * once for every step showing the same page. Steps name it in `steps.json` (`snapshot`).
 */
export const StepSnapshotFileSchema = z
  .object({
    version: z.literal(STEP_SNAPSHOT_FILE_VERSION),
    bundle_id: z.string(),
    snapshot: TimelineSnapshotSchema,
  })
  .strict();
export type StepSnapshotFile = z.infer<typeof StepSnapshotFileSchema>;

/** What a step changed: the diff from its snapshot to the next one, and the same in plain words. */
export const StepChangesSchema = z
  .object({
    /** The snapshot file compared with (the next page seen). */
    to: z.string(),
    description: z.string(),
    diff: TimelineDiffSchema,
  })
  .strict();
export type StepChanges = z.infer<typeof StepChangesSchema>;

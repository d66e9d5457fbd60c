import type { Checkpoint, TimelineData, TimelineSnapshot } from '../../../schemas/timeline';
import { applyChange, buildTree, createMirror } from './mirror';

/** The checkpoints of a timeline still rebuildable (the older ones were folded into the base). */
export function checkpointsOf(data: TimelineData): Checkpoint[] {
  return data.entries.filter((e): e is Checkpoint => e.kind === 'checkpoint');
}

/**
 * The page at checkpoint `seq`: the base with every change up to that checkpoint applied. Null when
 * the timeline no longer holds that checkpoint.
 */
export function rebuildAt(data: TimelineData, seq: number): TimelineSnapshot | null {
  const mirror = createMirror(data.base.root, data.base.records);
  for (const entry of data.entries) {
    if (entry.kind !== 'checkpoint') {
      applyChange(mirror, entry);
      continue;
    }
    if (entry.seq !== seq) continue;
    const { node, count } = buildTree(mirror);
    return snapshotAt(data, entry, node, count);
  }
  return null;
}

/**
 * The page at every checkpoint kept, in order, replaying the changes once. Consecutive checkpoints
 * showing the same page (`samePage`) share one rebuilt tree, so a writer can store it once.
 */
export function rebuildAll(data: TimelineData): TimelineSnapshot[] {
  const mirror = createMirror(data.base.root, data.base.records);
  const out: TimelineSnapshot[] = [];
  let previous: { checkpoint: Checkpoint; snapshot: TimelineSnapshot } | null = null;
  for (const entry of data.entries) {
    if (entry.kind !== 'checkpoint') {
      applyChange(mirror, entry);
      continue;
    }
    const reuse = previous && samePage(previous.checkpoint, entry) ? previous.snapshot : null;
    const { node, count } = reuse ? { node: reuse.root, count: reuse.node_count } : buildTree(mirror);
    const snapshot = snapshotAt(data, entry, node, count);
    out.push(snapshot);
    previous = { checkpoint: entry, snapshot };
  }
  return out;
}

/** Whether two checkpoints of one document show the same page, known without rebuilding either. */
export function samePage(a: Checkpoint, b: Checkpoint): boolean {
  return a.changes === b.changes && a.url === b.url && a.title === b.title;
}

/** A checkpoint's page: its own facts and the tree rebuilt for it. */
function snapshotAt(data: TimelineData, checkpoint: Checkpoint, root: TimelineSnapshot['root'], nodeCount: number): TimelineSnapshot {
  return {
    document_id: data.document_id,
    checkpoint: checkpoint.seq,
    label: checkpoint.label,
    at: checkpoint.at,
    url: checkpoint.url,
    title: checkpoint.title,
    changes: checkpoint.changes,
    node_count: nodeCount,
    truncated: checkpoint.truncated,
    ...(checkpoint.asked_at === undefined ? {} : { asked_at: checkpoint.asked_at }),
    root,
  };
}

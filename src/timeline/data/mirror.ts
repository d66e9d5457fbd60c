import type { TimelineChange, TimelineNode, TimelineRecord } from '../../../schemas/timeline';

/**
 * A page as plain data: its records by id, from the root down. Records are never changed in place
 * (a change replaces them), so two mirrors may share them: the live page, the base, a rebuild.
 */
export interface Mirror {
  readonly records: Map<number, TimelineRecord>;
  readonly root: number;
  /** Estimated bytes of every record (see `recordBytes`). */
  bytes: number;
}

/** Approximate size of a record as JSON, in UTF-16 code units: cheap enough to run on every node. */
export function recordBytes(r: TimelineRecord): number {
  let n = 16 + r.tag.length;
  if (r.role) n += 10 + r.role.length;
  if (r.name) n += 10 + r.name.length;
  if (r.text) n += 10 + r.text.length;
  if (r.value !== undefined) n += 10 + (r.value?.length ?? 4);
  if (r.value_redacted) n += 40 + (r.redaction_kind?.length ?? 0);
  if (r.checked !== undefined) n += 15;
  if (r.shadow_root) n += 18;
  if (r.frame) n += 22;
  if (r.attributes) for (const k in r.attributes) n += 6 + k.length + r.attributes[k]!.length;
  if (r.children) n += 14 + 6 * r.children.length;
  return n;
}

/** Approximate size of a change as JSON. */
export function changeBytes(change: TimelineChange): number {
  if (change.kind === 'fields') return 40 + recordBytes(change.node);
  let n = 60 + 6 * change.children.length;
  for (const r of change.added) n += recordBytes(r);
  return n;
}

export function createMirror(root: number, records: Iterable<TimelineRecord>): Mirror {
  const map = new Map<number, TimelineRecord>();
  let bytes = 0;
  for (const r of records) {
    map.set(r.id, r);
    bytes += recordBytes(r);
  }
  return { records: map, root, bytes };
}

/** A mirror of the same page that changes apart from `m` (records are shared, never mutated). */
export function cloneMirror(m: Mirror): Mirror {
  return { records: new Map(m.records), root: m.root, bytes: m.bytes };
}

function removeSubtree(m: Mirror, id: number, onRemoved?: (id: number) => void): void {
  const stack = [id];
  while (stack.length) {
    const cur = stack.pop()!;
    const r = m.records.get(cur);
    if (!r) continue;
    m.records.delete(cur);
    m.bytes -= recordBytes(r);
    onRemoved?.(cur);
    if (r.children) stack.push(...r.children);
  }
}

/**
 * Applies one change. A node left out of its parent's new child list is removed with its subtree
 * (a moved element comes back as a new node with a new id). Changes to unknown ids are ignored.
 */
export function applyChange(m: Mirror, change: TimelineChange, onRemoved?: (id: number) => void): void {
  if (change.kind === 'fields') {
    const old = m.records.get(change.node.id);
    if (!old) return;
    const next: TimelineRecord = old.children ? { ...change.node, children: old.children } : { ...change.node };
    m.records.set(next.id, next);
    m.bytes += recordBytes(next) - recordBytes(old);
    return;
  }
  const old = m.records.get(change.id);
  if (!old) return;
  const kept = new Set(change.children);
  for (const c of old.children ?? []) if (!kept.has(c)) removeSubtree(m, c, onRemoved);
  for (const r of change.added) {
    m.records.set(r.id, r);
    m.bytes += recordBytes(r);
  }
  const next: TimelineRecord = { ...old };
  if (change.children.length) next.children = change.children;
  else delete next.children;
  m.records.set(next.id, next);
  m.bytes += recordBytes(next) - recordBytes(old);
}

/** The tree under `id` as nested nodes, and how many elements it holds. */
export function buildTree(m: Mirror, id: number = m.root): { node: TimelineNode; count: number } {
  let count = 0;
  const build = (rid: number): TimelineNode | null => {
    const r = m.records.get(rid);
    if (!r) return null;
    count++;
    const { children, ...fields } = r;
    const node: TimelineNode = fields;
    if (children?.length) {
      const built = children.map(build).filter((c): c is TimelineNode => c !== null);
      if (built.length) node.children = built;
    }
    return node;
  };
  const node = build(id) ?? { id, tag: 'html' };
  return { node, count: Math.max(count, 1) };
}

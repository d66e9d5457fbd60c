import type { DiffNode, TimelineDiff, TimelineNode, TimelineSnapshot } from '../../../schemas/timeline';

/** Most entries kept in each list of a diff; a step that changes more is summarised by its first ones. */
export const MAX_DIFF_ITEMS = 100;
/** Most notable descendants named for an added or removed subtree. */
const MAX_NOTABLE = 3;
const MAX_LABEL_CHARS = 80;

const NOTABLE_TAGS = new Set(['form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'dialog', 'table']);
const NOTABLE_ROLES = new Set(['alert', 'alertdialog', 'dialog', 'status', 'form', 'heading']);

/** Whether a node is worth naming on its own in a diff: forms, headings, dialogs, alerts, tables. */
export function isNotable(n: { tag: string; role?: string }): boolean {
  return NOTABLE_TAGS.has(n.tag) || (n.role !== undefined && NOTABLE_ROLES.has(n.role));
}

/** A short, already masked label: the accessible name, else the text, else the id attribute. */
export function labelOf(n: TimelineNode): string | undefined {
  const raw = n.name ?? n.text ?? (n.attributes?.id ? `#${n.attributes.id}` : undefined);
  return raw === undefined ? undefined : raw.length > MAX_LABEL_CHARS ? `${raw.slice(0, MAX_LABEL_CHARS - 1)}…` : raw;
}

interface Indexed {
  node: TimelineNode;
  parent: number | null;
}

function index(root: TimelineNode): Map<number, Indexed> {
  const out = new Map<number, Indexed>();
  const stack: Indexed[] = [{ node: root, parent: null }];
  while (stack.length) {
    const cur = stack.pop()!;
    out.set(cur.node.id, cur);
    // Reversed onto the stack, so nodes are met (and reported) in document order.
    const kids = cur.node.children ?? [];
    for (let i = kids.length - 1; i >= 0; i--) stack.push({ node: kids[i]!, parent: cur.node.id });
  }
  return out;
}

function countBelow(n: TimelineNode): number {
  let count = 0;
  for (const c of n.children ?? []) count += 1 + countBelow(c);
  return count;
}

function summarize(node: TimelineNode): DiffNode {
  let size = 0;
  const notable: NonNullable<DiffNode['notable']> = [];
  const visit = (n: TimelineNode, self: boolean): void => {
    size++;
    if (!self && notable.length < MAX_NOTABLE && isNotable(n)) {
      const item: (typeof notable)[number] = { tag: n.tag };
      if (n.role) item.role = n.role;
      const label = labelOf(n);
      if (label) item.label = label;
      notable.push(item);
      // Its own notable parts (a form's headings) are named by naming it; still counted in `size`.
      size += countBelow(n);
      return;
    }
    for (const c of n.children ?? []) visit(c, false);
  };
  visit(node, true);
  const out: DiffNode = { id: node.id, tag: node.tag, size };
  if (node.role) out.role = node.role;
  const label = labelOf(node);
  if (label) out.label = label;
  if (notable.length) out.notable = notable;
  return out;
}

function named(n: TimelineNode, byText = true): { id: number; tag: string; label?: string } {
  const label = byText ? labelOf(n) : labelOf({ ...n, text: undefined });
  return label ? { id: n.id, tag: n.tag, label } : { id: n.id, tag: n.tag };
}

function push<T>(list: T[], item: T): void {
  if (list.length < MAX_DIFF_ITEMS) list.push(item);
}

function compareNodes(a: TimelineNode, b: TimelineNode, diff: TimelineDiff): void {
  if ((a.text ?? '') !== (b.text ?? '')) push(diff.text, { ...named(b, false), from: a.text ?? '', to: b.text ?? '' });
  const keys = new Set([...Object.keys(a.attributes ?? {}), ...Object.keys(b.attributes ?? {})]);
  for (const k of keys) {
    const from = a.attributes?.[k] ?? null;
    const to = b.attributes?.[k] ?? null;
    if (from !== to) push(diff.attributes, { ...named(b), attribute: k, from, to });
  }
  const redacted = Boolean(a.value_redacted || b.value_redacted);
  if (redacted) {
    // A withheld value is never compared: only a change of its withheld state is reported.
    if (Boolean(a.value_redacted) !== Boolean(b.value_redacted)) push(diff.values, { ...named(b), redacted, from: null, to: null });
  } else if ((a.value ?? null) !== (b.value ?? null)) {
    push(diff.values, { ...named(b), redacted, from: a.value ?? null, to: b.value ?? null });
  }
  if (a.checked !== undefined && b.checked !== undefined && a.checked !== b.checked) {
    push(diff.values, { ...named(b), redacted: false, from: a.checked, to: b.checked });
  }
}

/**
 * What changed from page `a` to page `b` (two rebuilt checkpoints): subtrees added and removed
 * (only their top node, with its size and notable contents), text, attribute and value-state
 * changes. Across documents (a navigation) the old page counts as removed and the new one as added.
 */
export function diffSnapshots(a: TimelineSnapshot, b: TimelineSnapshot): TimelineDiff {
  const diff: TimelineDiff = {
    from_checkpoint: a.checkpoint,
    to_checkpoint: b.checkpoint,
    new_document: a.document_id !== b.document_id,
    added: [],
    removed: [],
    text: [],
    attributes: [],
    values: [],
  };
  if (a.url !== b.url) diff.url = { from: a.url, to: b.url };
  if (diff.new_document) {
    for (const c of a.root.children ?? []) push(diff.removed, summarize(c));
    for (const c of b.root.children ?? []) push(diff.added, { ...summarize(c), parent: null });
    return diff;
  }
  if (a.changes === b.changes) return diff;
  const before = index(a.root);
  const after = index(b.root);
  for (const [id, { node, parent }] of before) {
    const now = after.get(id);
    if (!now) {
      if (parent === null || after.has(parent)) push(diff.removed, summarize(node));
    } else compareNodes(node, now.node, diff);
  }
  for (const [id, { node, parent }] of after) {
    if (!before.has(id) && (parent === null || before.has(parent))) push(diff.added, { ...summarize(node), parent });
  }
  return diff;
}

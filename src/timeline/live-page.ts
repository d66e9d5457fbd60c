import type { TimelineChange, TimelineRecord } from '../../schemas/timeline';
import { NAME_FROM_CONTENT } from '../snapshot/accessible-name';
import { describeElement, sameFields, type DescribeContext, type DescribedElement } from './describe-element';
import { applyChange, createMirror, recordBytes, type Mirror } from './mirror';

export interface LivePageOptions extends DescribeContext {
  /** Most estimated bytes of the page's records; past it new nodes are left out (`truncated`). */
  readonly maxPageBytes: number;
  /** Deepest element nesting kept, as `takeSnapshot`'s `maxDepth`. */
  readonly maxDepth: number;
  /** Called for each open shadow root and same-origin frame document met, so it is observed too. */
  readonly onRoot: (root: ShadowRoot | Document) => void;
}

/**
 * The recorder's view of one document: a mirror of its redacted element tree, the element behind
 * each id, and the work of turning "these elements may have changed" into timeline changes.
 */
export interface LivePage {
  readonly mirror: Mirror;
  /** Some of the page is left out (byte budget or depth). */
  readonly truncated: boolean;
  /** The id of an element in the mirror, or undefined. */
  idOf(el: Node): number | undefined;
  /**
   * Re-reads `dirty` elements (own fields and child lists) and returns what changed, already
   * applied to the mirror. Elements without an id (not recorded) are ignored.
   */
  update(dirty: Iterable<Element>): TimelineChange[];
  /** Recorded elements named through `aria-labelledby`: any text change may rename them. */
  readonly labelledBy: ReadonlySet<Element>;
  /** Adds to `into` the recorded ancestors of `el` whose name is read from `el`'s text (buttons, links, labels' fields). */
  addNameOwners(el: Element, into: Set<Element>, seen: Set<Element>): void;
}

function sameIds(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** Serializes `doc` whole (within the budget) and keeps it up to date through `update`. */
export function createLivePage(doc: Document, opts: LivePageOptions, now: () => number): LivePage {
  const ids = new WeakMap<Node, number>();
  const elements = new Map<number, Element>();
  const parents = new Map<number, number>();
  const depths = new Map<number, number>();
  const labelledBy = new Set<Element>();
  const rootEl = doc.documentElement;
  let nextId = 1;
  let truncated = false;

  const register = (el: Element, id: number, parent: number, depth: number): void => {
    ids.set(el, id);
    elements.set(id, el);
    parents.set(id, parent);
    depths.set(id, depth);
    if (el.hasAttribute('aria-labelledby')) labelledBy.add(el);
  };
  const forget = (id: number): void => {
    const el = elements.get(id);
    if (el && ids.get(el) === id) {
      ids.delete(el);
      labelledBy.delete(el);
    }
    elements.delete(id);
    parents.delete(id);
    depths.delete(id);
  };

  const describe = (el: Element, id: number): DescribedElement => {
    if (el === rootEl) return { fields: { id, tag: el.localName }, children: doc.body ? [doc.body] : [] };
    const d = describeElement(el, id, opts);
    if (d.shadowRoot) opts.onRoot(d.shadowRoot);
    if (d.frameDoc) opts.onRoot(d.frameDoc);
    return d;
  };

  /** Child elements to record under a described element at `depth`, or null past the depth limit. */
  const childElements = (d: DescribedElement, depth: number): Element[] => {
    const kids = d.frameDoc?.body ? [d.frameDoc.body] : d.children;
    if (kids.length && depth >= opts.maxDepth) {
      truncated = true;
      return [];
    }
    return kids;
  };

  /** Records `el`'s subtree with fresh ids into `out` (children before parents); null when over budget. */
  const serialize = (el: Element, parent: number, depth: number, out: TimelineRecord[], budget: { bytes: number }): number | null => {
    if (budget.bytes >= opts.maxPageBytes) {
      truncated = true;
      return null;
    }
    const id = nextId++;
    const d = describe(el, id);
    register(el, id, parent, depth);
    // Counted before the children, so the budget holds for the whole subtree (see `recordBytes`).
    budget.bytes += recordBytes(d.fields) + 14;
    const kids: number[] = [];
    for (const c of childElements(d, depth)) {
      const cid = serialize(c, id, depth + 1, out, budget);
      if (cid === null) break;
      kids.push(cid);
      budget.bytes += 6;
    }
    out.push(kids.length ? { ...d.fields, children: kids } : d.fields);
    return id;
  };

  // The document at its start: the root element and the body under it, as `takeSnapshot` has them.
  const start: TimelineRecord[] = [];
  const rootId = nextId++;
  const rootRecord: TimelineRecord = { id: rootId, tag: rootEl?.localName ?? 'html' };
  if (rootEl) register(rootEl, rootId, 0, 0);
  const budget = { bytes: recordBytes(rootRecord) };
  const bodyId = doc.body ? serialize(doc.body, rootId, 1, start, budget) : null;
  if (bodyId !== null) rootRecord.children = [bodyId];
  start.push(rootRecord);
  const mirror = createMirror(rootId, start);

  const update = (dirty: Iterable<Element>): TimelineChange[] => {
    const changes: TimelineChange[] = [];
    const firstFresh = nextId;
    for (const el of dirty) {
      const id = ids.get(el);
      const old = id === undefined || id >= firstFresh ? undefined : mirror.records.get(id);
      if (!old || id === undefined) continue;
      const d = describe(el, id);
      if (el.hasAttribute('aria-labelledby')) labelledBy.add(el);
      else labelledBy.delete(el);
      const { children: oldKids = [], ...oldFields } = old;
      if (!sameFields(oldFields, d.fields)) {
        const change: TimelineChange = { kind: 'fields', at: now(), node: d.fields };
        applyChange(mirror, change);
        changes.push(change);
      }
      const depth = depths.get(id) ?? 0;
      const added: TimelineRecord[] = [];
      const kids: number[] = [];
      const addBudget = { bytes: mirror.bytes };
      for (const c of childElements(d, depth)) {
        const cid = ids.get(c);
        if (cid !== undefined && cid < firstFresh && parents.get(cid) === id && mirror.records.has(cid)) kids.push(cid);
        else {
          const fresh = serialize(c, id, depth + 1, added, addBudget);
          if (fresh === null) break;
          kids.push(fresh);
        }
      }
      if (!sameIds(kids, oldKids)) {
        const change: TimelineChange = { kind: 'children', at: now(), id, children: kids, added };
        applyChange(mirror, change, forget);
        changes.push(change);
      }
    }
    return changes;
  };

  const addNameOwners = (el: Element, into: Set<Element>, seen: Set<Element>): void => {
    for (let a: Element | null = el; a && !seen.has(a); a = a.parentElement) {
      seen.add(a);
      const id = ids.get(a);
      const role = id === undefined ? undefined : mirror.records.get(id)?.role;
      if (role && NAME_FROM_CONTENT.has(role)) into.add(a);
      if (a.localName === 'label') {
        const control = (a as HTMLLabelElement).control;
        if (control) into.add(control);
      }
    }
  };

  return {
    mirror,
    labelledBy,
    get truncated() {
      return truncated;
    },
    idOf: (el) => ids.get(el),
    update,
    addNameOwners,
  };
}

import type { TimelineChange, TimelineRecord } from '../../../schemas/timeline';
import { NAME_FROM_CONTENT } from '../../snapshot/accessible-name';
import { describeElement, sameFields, type DescribeContext, type DescribedElement } from './describe-element';
import { applyChange, createMirror, recordBytes, type Mirror } from '../data/mirror';

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
  update(dirty: Iterable<Element>, readded: ReadonlySet<Node>): TimelineChange[];
  /** Recorded elements named through `aria-labelledby`: any text change may rename them. */
  readonly labelledBy: ReadonlySet<Element>;
  /**
   * Takes the document's first snapshot, or the next part of it: true once it is whole. Until
   * then `update` must not run (mutations meanwhile are collected, then handed to it).
   */
  build(shouldYield: () => boolean): boolean;
  /** Adds to `into` the recorded ancestors of `el` whose name is read from `el`'s text (buttons, links, labels' fields). */
  addNameOwners(el: Element, into: Set<Element>, seen: Set<Element>): void;
  /**
   * While the first snapshot is being taken: records `el` and its ancestors not yet reached, ahead of
   * the walk, so that an action's target has its id at once. A few elements per level of depth.
   */
  reach(el: Element): void;
}

/** The element's parent, or across a shadow root its host: the tree a snapshot records. */
export function composedParent(el: Element): Element | null {
  return el.parentElement ?? ((el.getRootNode() as Partial<ShadowRoot>).host as Element | undefined) ?? null;
}

function sameIds(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** Serializes `doc` (within the budget; see `build`) and keeps it up to date through `update`. */
export function createLivePage(doc: Document, opts: LivePageOptions, now: () => number): LivePage {
  const ids = new WeakMap<Node, number>();
  /** Each recorded element by id, with its parent's id and its depth. */
  const nodes = new Map<number, { el: Element; parent: number; depth: number }>();
  const labelledBy = new Set<Element>();
  const rootEl = doc.documentElement;
  let nextId = 1;
  let truncated = false;

  const register = (el: Element, id: number, parent: number, depth: number): void => {
    ids.set(el, id);
    nodes.set(id, { el, parent, depth });
    if (el.hasAttribute('aria-labelledby')) labelledBy.add(el);
  };
  const forget = (id: number): void => {
    const el = nodes.get(id)?.el;
    if (el && ids.get(el) === id) {
      ids.delete(el);
      labelledBy.delete(el);
    }
    nodes.delete(id);
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

  /**
   * A walk recording subtrees with fresh ids, depth-first, one element per step, so that it can
   * stop and resume (a page's first snapshot taken in slices). A parent's record lists its
   * children's ids when it is described; a child cut by the byte budget is taken out of that list.
   */
  interface Pending {
    el: Element;
    id: number;
    depth: number;
    parent: TimelineRecord | null;
  }
  const createWalk = (emit: (record: TimelineRecord) => void, budget: { bytes: number }) => {
    const stack: Pending[] = [];
    const add = (el: Element, parentId: number, depth: number, parent: TimelineRecord | null): number => {
      const id = nextId++;
      register(el, id, parentId, depth);
      stack.push({ el, id, depth, parent });
      return id;
    };
    const drop = (p: Pending): void => {
      truncated = true;
      forget(p.id);
      const kids = p.parent?.children;
      if (!kids) return;
      const at = kids.indexOf(p.id);
      if (at >= 0) kids.splice(at, 1);
      if (!kids.length) delete p.parent!.children;
    };
    const step = (): void => {
      const p = stack.pop()!;
      if (budget.bytes >= opts.maxPageBytes) return drop(p);
      const d = describe(p.el, p.id);
      const record: TimelineRecord = d.fields;
      // Counted before the children, so the budget holds for the whole subtree (see `recordBytes`).
      budget.bytes += recordBytes(record) + 14;
      const kids = childElements(d, p.depth);
      if (kids.length) {
        record.children = kids.map((c) => add(c, p.id, p.depth + 1, record));
        budget.bytes += 6 * kids.length;
        // Ids in document order; reversed on the stack so the first child is walked next.
        for (let i = stack.length - kids.length, j = stack.length - 1; i < j; i++, j--) [stack[i], stack[j]] = [stack[j]!, stack[i]!];
      }
      emit(record);
    };
    return {
      add,
      /** Describes `el` now, ahead of its turn, if it waits in the walk (its children then come next). */
      walkNow(el: Element): void {
        for (let i = stack.length - 1; i >= 0; i--) {
          if (stack[i]!.el !== el) continue;
          stack.push(stack.splice(i, 1)[0]!);
          return step();
        }
      },
      /** Walks until done (true) or until `shouldYield` says to stop (false). */
      run(shouldYield: () => boolean): boolean {
        while (stack.length) {
          step();
          if (shouldYield()) return !stack.length;
        }
        return true;
      },
    };
  };

  // The document at its start: the root element and the body under it, as `takeSnapshot` has them.
  // The root element is the walk's first id (described as tag only, `<body>` its child).
  const mirror = createMirror(nextId, []);
  const startBudget = { bytes: 0 };
  const startWalk = createWalk((r) => mirror.records.set(r.id, r), startBudget);
  if (rootEl) startWalk.add(rootEl, 0, 0, null);
  else mirror.records.set(nextId, { id: nextId++, tag: 'html' });
  let built = false;
  const build = (shouldYield: () => boolean): boolean => {
    if (built) return true;
    if (!startWalk.run(shouldYield)) return false;
    // The walk's count is the records' bytes (plus 14 per leaf) unless a cut took ids out of their parents' lists.
    if (truncated) for (const r of mirror.records.values()) mirror.bytes += recordBytes(r);
    else mirror.bytes = startBudget.bytes;
    built = true;
    return true;
  };

  const reach = (target: Element): void => {
    if (built) return;
    const chain: Element[] = [];
    let el: Element | null = target;
    while (el && !ids.has(el)) {
      chain.push(el);
      el = composedParent(el);
    }
    // From the nearest registered ancestor down: each one described registers its children, the next link among them.
    while (el && ids.has(el)) {
      startWalk.walkNow(el);
      el = chain.pop() ?? null;
    }
  };

  const update = (dirty: Iterable<Element>, readded: ReadonlySet<Node>): TimelineChange[] => {
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
      const depth = nodes.get(id)?.depth ?? 0;
      const added: TimelineRecord[] = [];
      const holder: TimelineRecord = { id, tag: d.fields.tag, children: [] };
      const walk = createWalk((r) => added.push(r), { bytes: mirror.bytes });
      for (const c of childElements(d, depth)) {
        const cid = ids.get(c);
        const kept = cid !== undefined && cid < firstFresh && nodes.get(cid)?.parent === id && mirror.records.has(cid) && !readded.has(c);
        holder.children!.push(kept ? cid : walk.add(c, id, depth + 1, holder));
      }
      walk.run(() => false);
      const kids = holder.children ?? [];
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
    build,
    get truncated() {
      return truncated;
    },
    idOf: (el) => ids.get(el),
    update,
    addNameOwners,
    reach,
  };
}

import type { Checkpoint, TimelineData, TimelineEntry, TimelineTarget } from '../../../schemas/timeline';
import type { TextMasker } from '../../redact/mask-text';
import { createRedactionCounts } from '../../redact/redaction-counts';
import { redactUrl } from '../../redact/redact-url';
import { defaultFrameDocument } from '../../snapshot/take-snapshot';
import { PageWorkBudget, type PageWorkLimits } from '../../shared/page-work-budget';
import { createChangeLog, type ChangeLog } from '../data/change-log';
import { DEFAULT_MAX_TEXT_CHARS } from './describe-element';
import { composedParent, createLivePage } from './live-page';
import { targetRect } from './target-rect';

export interface TimelineOptions {
  /** Entries older than this are folded into the base (the recorder's `bufferSeconds`). */
  bufferSeconds: number;
  /** Most estimated bytes of the page itself (the base, and the live page): past it nodes are left out. */
  maxPageBytes?: number;
  /** Most estimated bytes of the changes kept; past it the oldest are folded into the base. */
  maxChangeBytes?: number;
  maxDepth?: number;
  now?: () => number;
  /** Unique per document; generated when missing. */
  documentId?: string;
  frameDocument?: (iframe: Element) => Document | null;
  warn?: (message: string, error?: unknown) => void;
  /** Told of every entry appended once the recorder is handed out (changes and checkpoints), in order. */
  onEntry?: (entry: TimelineEntry) => void;
  /** How much of the page's thread reading its changes may take between checkpoints (`PAGE_WORK_BUDGET`). */
  workBudget?: PageWorkLimits;
}

/** 8 MiB holds a 10,000-element page several times over (~100 bytes per element). */
export const TIMELINE_DEFAULTS = { maxPageBytes: 8 * 1024 * 1024, maxChangeBytes: 4 * 1024 * 1024, maxDepth: 100 } as const;

const MAX_LABEL_CHARS = 200;
const OBSERVED: MutationObserverInit = { childList: true, subtree: true, attributes: true, characterData: true };

/** Elements read between two looks at the clock, in a slice of the work budget. */
const SLICE_ELEMENTS = 4;
/**
 * Inserted nodes remembered while changes wait for the budget, at most: past it, what waits is read at
 * once, budget or not, so that a page inserting nodes faster than they are read does not keep every
 * one of them (and its values) alive.
 */
export const MAX_WAITING_INSERTED = 5_000;

/** Takes up to `n` elements out of `set`, in the order they were added. */
function takeSome<T>(set: Set<T>, n: number): T[] {
  const out: T[] = [];
  for (const item of set) {
    if (out.length >= n) break;
    out.push(item);
  }
  for (const item of out) set.delete(item);
  return out;
}

/** The incremental DOM recorder of one document. */
export interface TimelineRecorder {
  /**
   * Marks the page as it is now (before an action or step, and at `pagehide`): processes the
   * mutations not yet seen and appends a marker. It never re-serializes the page.
   * @example recorder.checkpoint('click "Place order"')
   */
  checkpoint(label: string): Checkpoint;
  /** The node an event target belongs to (its nearest recorded element) and the target's box. */
  target(el: EventTarget | null): TimelineTarget;
  /** The base and the entries kept, as plain data (`TimelineDataSchema`). */
  data(): TimelineData;
  /** Stops observing; the recorded data stays readable. */
  stop(): void;
}

/** A recorder whose first snapshot is being taken (`live.build`), not yet handed out. */
export interface Starting {
  readonly documentId: string;
  /** Takes the next part of the first snapshot (observing what it meets); true once whole. */
  build(shouldYield: () => boolean): boolean;
  /** The recorder, once `build` answered true: the checkpoints asked for meanwhile are its first entries. */
  finish(): TimelineRecorder;
  /** A checkpoint asked for before `finish`: its seq now, its entry at `finish` (null past `MAX_WAITING_CHECKPOINTS`). */
  reserveCheckpoint(label: string): number | null;
  /** `target` before `finish`: the element and its ancestors are recorded ahead of the walk. */
  target(el: EventTarget | null): TimelineTarget;
  stop(): void;
}

/**
 * Checkpoints asked for while a first snapshot is taken (an action, an agent's step) wait for it, at
 * most this many: a page clicked a hundred times in its first second has its later clicks without a page.
 */
export const MAX_WAITING_CHECKPOINTS = 100;

/**
 * Records `doc` as a redacted timeline: one full snapshot now (same redaction as `takeSnapshot`,
 * with `masker`), then every change a `MutationObserver`, `input` and `change` events show.
 */
export function startTimeline(doc: Document, masker: TextMasker, opts: TimelineOptions): TimelineRecorder {
  const starting = prepareTimeline(doc, masker, opts);
  starting.build(() => false);
  return starting.finish();
}

/**
 * A recorder of `doc` whose first snapshot is yet to be taken (`build`), then handed out (`finish`):
 * `startTimeline` takes it in one go, `beginTimelineInSlices` (`sliced-start.ts`) in slices.
 */
export function prepareTimeline(doc: Document, masker: TextMasker, opts: TimelineOptions): Starting {
  const now = opts.now ?? Date.now;
  const warn = opts.warn ?? ((m: string, e?: unknown) => console.warn(`[afr] ${m}`, e ?? ''));
  const documentId = opts.documentId ?? `${now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  const roots = new WeakSet<Node>();
  const pendingRoots: (ShadowRoot | Document)[] = [];
  const live = createLivePage(
    doc,
    {
      masker,
      counts: createRedactionCounts(),
      frameDocument: opts.frameDocument ?? defaultFrameDocument,
      maxTextChars: DEFAULT_MAX_TEXT_CHARS,
      maxPageBytes: opts.maxPageBytes ?? TIMELINE_DEFAULTS.maxPageBytes,
      maxDepth: opts.maxDepth ?? TIMELINE_DEFAULTS.maxDepth,
      onRoot: (root) => {
        if (!roots.has(root)) pendingRoots.push(root);
      },
    },
    now,
  );
  let log: ChangeLog | null = null;
  const dirty = new Set<Element>();
  /** Elements inserted since the last update: recorded afresh, since what happened to them while out of the document was not observed. */
  const readded = new Set<Node>();

  const append = (entry: TimelineEntry, at: number): void => {
    if (!log) return;
    log.append(entry, at);
    opts.onEntry?.(entry);
  };
  const markText = (parent: Node | null): void => {
    if (!parent) return;
    if (parent.nodeType === 1) dirty.add(parent as Element);
    else if (parent.nodeType === 11 && (parent as ShadowRoot).host) dirty.add((parent as ShadowRoot).host);
    else if (parent.nodeType === 9 && (parent as Document).documentElement) dirty.add((parent as Document).documentElement);
  };
  const collect = (records: MutationRecord[]): void => {
    const owners = new Set<Element>();
    const seen = new Set<Element>();
    for (const r of records) {
      if (r.type === 'attributes') {
        if (r.attributeName !== 'style') dirty.add(r.target as Element);
        continue;
      }
      if (r.type === 'childList') r.addedNodes.forEach((n) => readded.add(n));
      const parent = r.type === 'characterData' ? r.target.parentNode : r.target;
      markText(parent);
      if (parent?.nodeType === 1) {
        const el = parent as Element;
        // Light-DOM children of a shadow host are shown through its slots.
        el.shadowRoot?.querySelectorAll('slot').forEach((s) => dirty.add(s));
        live.addNameOwners(el, owners, seen);
      }
    }
    for (const o of owners) dirty.add(o);
    // Names read through `aria-labelledby` may come from any text that changed (usually few such fields).
    if (seen.size) for (const el of live.labelledBy) dirty.add(el);
  };
  const processDirty = (): void => {
    if (dirty.size) {
      const batch = [...dirty];
      dirty.clear();
      // Before the recorder is handed out, what changed is part of the base, not a change.
      for (const change of live.update(batch, readded)) append(change, now());
      readded.clear();
    }
    while (pendingRoots.length) observeRoot(pendingRoots.pop()!);
  };
  /**
   * Between checkpoints the changes are read within the page's work budget: in slices, the rest
   * waiting (merged with what changes meanwhile) for the next one. A checkpoint reads all of them
   * (`flush`), so every step still has the page exactly as it was: only the states an element went
   * through between two reads are not recorded.
   */
  const budget = new PageWorkBudget(opts.workBudget, now());
  let sliceTimer: ReturnType<typeof setTimeout> | undefined;
  const processSlice = (): void => {
    sliceTimer = undefined;
    const wait = budget.waitBefore(now());
    if (wait <= 0) {
      const started = now();
      do {
        const batch = takeSome(dirty, SLICE_ELEMENTS);
        for (const change of live.update(batch, readded)) append(change, now());
      } while (dirty.size && !budget.sliceOver(started, now()));
      budget.spend(started, now());
      // Elements inserted stay marked until every element that may hold them was read.
      if (!dirty.size) readded.clear();
      while (pendingRoots.length) observeRoot(pendingRoots.pop()!);
      if (!dirty.size) return;
    } else budget.deferred++;
    sliceTimer = setTimeout(() => guarded('mutation processing', processSlice), Math.max(wait, 0));
  };
  const guarded = (what: string, fn: () => void): void => {
    try {
      fn();
    } catch (error) {
      // A bug in the recorder must never reach the page's own code.
      dirty.clear();
      warn(`timeline: ${what} failed`, error);
    }
  };

  let built = false;
  const observer = new MutationObserver((records) =>
    guarded('mutation processing', () => {
      collect(records);
      if (built && readded.size > MAX_WAITING_INSERTED) processDirty();
      else if (built && sliceTimer === undefined) processSlice();
    }),
  );
  const onField = (event: Event): void =>
    guarded('field event', () => {
      const el = (event.composedPath?.()[0] ?? event.target) as Element | null;
      if (!el || el.nodeType !== 1) return;
      dirty.add(el);
      // Checking a radio silently unchecks the others of its group.
      const name = el.getAttribute('name');
      if (el.localName === 'input' && name && (el.getAttribute('type') ?? '').toLowerCase() === 'radio') {
        (el.getRootNode() as ParentNode).querySelectorAll('input[type=radio i]').forEach((r) => {
          if (r.getAttribute('name') === name) dirty.add(r);
        });
      }
    });
  const listened: Document[] = [];
  function observeRoot(root: ShadowRoot | Document | Node): void {
    if (roots.has(root)) return;
    roots.add(root);
    observer.observe(root, OBSERVED);
    if (root.nodeType === 9) {
      root.addEventListener('input', onField, { capture: true, passive: true });
      root.addEventListener('change', onField, { capture: true, passive: true });
      listened.push(root as Document);
    }
  }
  observeRoot(doc);
  while (pendingRoots.length) observeRoot(pendingRoots.pop()!);

  const flush = (): void => guarded('mutation processing', () => (collect(observer.takeRecords()), processDirty()));
  let seq = 0;
  let lastUrl: [string, string] | null = null;
  let lastTitle: [string, string] | null = null;
  const counts = createRedactionCounts();
  const maskedUrl = (): string => {
    if (lastUrl?.[0] !== doc.URL) lastUrl = [doc.URL, redactUrl(doc.URL, masker, counts.text)];
    return lastUrl[1];
  };
  const maskedTitle = (): string => {
    const title = doc.title ?? '';
    if (lastTitle?.[0] !== title) lastTitle = [title, masker.maskAndCap(title, DEFAULT_MAX_TEXT_CHARS, counts.text)];
    return lastTitle[1];
  };

  const checkpointEntry = (log: ChangeLog, label: string, at: number): Checkpoint => ({
    kind: 'checkpoint',
    at,
    seq: seq++,
    label: masker.maskAndCap(label, MAX_LABEL_CHARS, counts.text),
    changes: log.changeCount,
    url: maskedUrl(),
    title: maskedTitle(),
    truncated: live.truncated,
  });
  /** Checkpoints asked for while the first snapshot is taken: their seqs are 0, 1, … in order. */
  const waiting: { label: string; askedAt: number }[] = [];

  const finish = (): TimelineRecorder => {
    built = true;
    flush();
    const at = now();
    const started = createChangeLog(
      documentId,
      live.mirror,
      at,
      { bufferSeconds: opts.bufferSeconds, maxEntryBytes: opts.maxChangeBytes ?? TIMELINE_DEFAULTS.maxChangeBytes },
      live.truncated,
    );
    log = started;
    // The checkpoints that waited show the page now: the one they were asked on, plus what changed since.
    for (const w of waiting.splice(0)) append({ ...checkpointEntry(started, w.label, at), asked_at: w.askedAt }, at);
    return recorder(started);
  };
  const reserveCheckpoint = (label: string): number | null => {
    if (log || waiting.length >= MAX_WAITING_CHECKPOINTS) return null;
    waiting.push({ label, askedAt: now() });
    return waiting.length - 1;
  };
  const build = (shouldYield: () => boolean): boolean => {
    // A failing first snapshot is logged and ends the walk: the recorder keeps what it has.
    let done = true;
    guarded('first snapshot', () => {
      done = live.build(shouldYield);
      while (pendingRoots.length) observeRoot(pendingRoots.pop()!);
    });
    return done;
  };

  const stop = (): void => {
    observer.disconnect();
    clearTimeout(sliceTimer);
    for (const d of listened) {
      d.removeEventListener('input', onField, { capture: true });
      d.removeEventListener('change', onField, { capture: true });
    }
  };
  const target = (eventTarget: EventTarget | null): TimelineTarget => {
    if (built) flush();
    const node = eventTarget as Node | null;
    let el: Element | null = !node || typeof node.nodeType !== 'number' ? null : node.nodeType === 1 ? (node as Element) : node.parentElement;
    const hit = el;
    // Before the first snapshot is whole, the element may not be reached yet: it is recorded now.
    if (!built && el) guarded('target', () => live.reach(el!));
    while (el && live.idOf(el) === undefined) el = composedParent(el);
    const id = el ? live.idOf(el) : undefined;
    return { node_id: id ?? null, rect: hit ? targetRect(hit) : null };
  };

  const recorder = (log: ChangeLog): TimelineRecorder => ({
    checkpoint(label) {
      flush();
      const entry = checkpointEntry(log, label, now());
      append(entry, entry.at);
      return entry;
    },
    target,
    data: () => (flush(), log.toData()),
    stop,
  });
  return { documentId, build, finish, reserveCheckpoint, target, stop };
}

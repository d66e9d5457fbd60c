import { classifySensitiveField } from './classify-field';
import { hasFieldValue } from './field-value';
import type { TextMasker } from './mask-text';
import { cachedMaskedSpan, type MaskedSpan } from './masked-span';
import { editorIsSensitive, fieldIsSensitive } from './sensitive-field';
import { capRects, clipBox, roundOut, type Box, type ViewportRect } from './viewport-rect';

export type { ViewportRect } from './viewport-rect';
export { isFocusedTypedField } from './sensitive-field';

/** A box as `getBoundingClientRect` / `getClientRects` give it (CSS px, the node's own viewport). */
export interface RectLike {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Where a target is drawn: one box for an element, one per line box for a range of text. */
export type RectSource = (target: Element | Range) => ArrayLike<RectLike>;

export interface CollectOptions {
  /** Most rects returned; past it, neighbours are merged (never dropped). Default: 2000, the message's limit. */
  maxRects?: number;
  /** Called with every document and open shadow root walked, so a caller can observe them. */
  onRoot?: (root: Document | ShadowRoot) => void;
  /** An iframe's document when it is readable (same origin), else null. */
  frameDocument?: (iframe: Element) => Document | null;
}

export const MAX_SENSITIVE_RECTS = 2000;

const rectsFromLayout: RectSource = (target) =>
  'nodeType' in target ? [target.getBoundingClientRect()] : target.getClientRects();

/**
 * The iframe's document when this script may read it. Null for another origin's, and for one that is
 * loading another origin's page (its `src`): until that page commits, the old document is still
 * readable, and nothing marks the moment it is replaced.
 */
function sameOriginDocument(iframe: Element): Document | null {
  try {
    const src = iframe.getAttribute('src');
    if (src) {
      const url = new URL(src, iframe.ownerDocument.baseURI);
      // The document's origin: an about:blank or srcdoc document's is its creator's (its location's is "null").
      const origin = iframe.ownerDocument.defaultView?.origin ?? iframe.ownerDocument.location?.origin;
      if ((url.protocol === 'http:' || url.protocol === 'https:') && url.origin !== origin) return null;
    }
    return (iframe as HTMLIFrameElement).contentDocument ?? null;
  } catch {
    return null;
  }
}

/** Subtrees never drawn as text (or handled as a whole): their text nodes are not looked at. */
const NOT_DESCENDED = new Set(['script', 'style', 'noscript', 'template', 'head', 'input', 'textarea', 'select', 'iframe', 'frame']);

/** The id of each node a region was found for, the same in every walk (see `ViewportRect`). */
const ids = new WeakMap<Node, number>();
let nextId = 0;
function idOf(node: Node): number {
  let id = ids.get(node);
  if (id === undefined) ids.set(node, (id = nextId++));
  return id;
}

/** Deepest nesting of same-origin iframes walked (a deeper one is masked whole). */
const MAX_FRAME_DEPTH = 8;

/**
 * A region the walk found, kept in walk order so that measuring it again gives the same rects in the
 * same order: an element drawn whole (one the custom selectors withhold), the masked span of a text
 * node, a form field (sensitive or not: its value and focus may change without a DOM mutation) with
 * how it was classified, or an editor (sensitive or not: the focus moves into it without a DOM mutation).
 */
type Source =
  | { readonly kind: 'box'; readonly el: Element }
  | { readonly kind: 'text'; readonly node: Text; readonly text: string; readonly span: MaskedSpan }
  | { readonly kind: 'field'; readonly el: Element; readonly root: Document | ShadowRoot; readonly classified: boolean }
  | { readonly kind: 'editor'; readonly el: Element; readonly root: Document | ShadowRoot };

/** What a walk found: measured again by `remeasure` while the DOM is as it was. */
interface Found {
  readonly masker: TextMasker;
  readonly sources: Source[];
  /** Each root walked, with what the custom selectors matched there (a selector may depend on state: `:focus`). */
  readonly roots: { readonly root: Document | ShadowRoot; readonly withheld: readonly Element[] }[];
  /** An iframe was met: its document may change (or become readable) without a mutation of ours. Set as the walk meets one. */
  framed: boolean;
}

interface Walk {
  readonly rectOf: RectSource;
  readonly frameDocument: (iframe: Element) => Document | null;
  readonly onRoot: (root: Document | ShadowRoot) => void;
  readonly masker: TextMasker;
  readonly out: ViewportRect[];
  readonly found: Found;
}

/** A document's (or shadow root's) placement in the top viewport: offset of its coordinates, visible box. */
interface Placement {
  readonly x: number;
  readonly y: number;
  readonly clip: Box;
  readonly frameDepth: number;
}

/** Adds `rects` (of the node with `id`), placed and clipped, to `out`. */
function add(out: ViewportRect[], rects: ArrayLike<RectLike>, at: Placement, id: number): void {
  for (let i = 0; i < rects.length; i++) {
    const r = rects[i]!;
    if (!(r.width > 0 && r.height > 0)) continue;
    const box = clipBox({ left: r.left + at.x, top: r.top + at.y, right: r.left + at.x + r.width, bottom: r.top + at.y + r.height }, at.clip);
    if (box) out.push({ ...roundOut(box), id });
  }
}

function visitText(node: Text, walk: Walk, at: Placement): void {
  const text = node.nodeValue;
  if (!text || !walk.masker.mayHold(text)) return;
  const span = cachedMaskedSpan(node, text, walk.masker);
  if (!span) return;
  walk.found.sources.push({ kind: 'text', node, text, span });
  add(walk.out, spanRects(walk.rectOf, node, span), at, idOf(node));
}

/** Where the masked span of a text node is drawn: one box per line. */
function spanRects(rectOf: RectSource, node: Text, span: MaskedSpan): ArrayLike<RectLike> {
  const range = node.ownerDocument.createRange();
  range.setStart(node, span[0]);
  range.setEnd(node, span[1]);
  return rectOf(range);
}

function addBox(walk: Walk, el: Element, at: Placement): void {
  walk.found.sources.push({ kind: 'box', el });
  add(walk.out, walk.rectOf(el), at, idOf(el));
}

function visitField(el: Element, root: Document | ShadowRoot, focused: Element | null, walk: Walk, at: Placement): void {
  if (!hasFieldValue(el)) return;
  const classified = classifySensitiveField(el, walk.masker.rules, walk.masker.knownSecrets) !== null;
  walk.found.sources.push({ kind: 'field', el, root, classified });
  if (fieldIsSensitive(el, focused, classified, walk.masker)) add(walk.out, walk.rectOf(el), at, idOf(el));
}

/**
 * An editor is typed into as a text field is: a region while it has the focus, from the first key
 * (see `editorIsSensitive`). Kept as a source either way: the focus moves into it with no DOM mutation.
 */
function visitEditor(host: Element, root: Document | ShadowRoot, focused: Element | null, walk: Walk, at: Placement): void {
  walk.found.sources.push({ kind: 'editor', el: host, root });
  if (editorIsSensitive(host, host.textContent ?? '', focused, walk.masker)) add(walk.out, walk.rectOf(host), at, idOf(host));
}

/**
 * A same-origin iframe's document is walked, placed inside the iframe's box. One this script cannot
 * read (another origin, such as a payment provider's card form; a sandbox; nesting deeper than
 * `MAX_FRAME_DEPTH`) may show anything: its whole box is a region.
 */
function visitFrame(iframe: Element, walk: Walk, at: Placement): void {
  walk.found.framed = true;
  const box = walk.rectOf(iframe)[0];
  if (!box) return;
  const doc = at.frameDepth < MAX_FRAME_DEPTH ? walk.frameDocument(iframe) : null;
  if (!doc) return add(walk.out, [box], at, idOf(iframe));
  // The frame's viewport starts inside its border and padding.
  const style = iframe.ownerDocument.defaultView?.getComputedStyle?.(iframe);
  const padLeft = parseFloat(style?.paddingLeft ?? '') || 0;
  const padTop = parseFloat(style?.paddingTop ?? '') || 0;
  const padRight = parseFloat(style?.paddingRight ?? '') || 0;
  const padBottom = parseFloat(style?.paddingBottom ?? '') || 0;
  const x = at.x + box.left + iframe.clientLeft + padLeft;
  const y = at.y + box.top + iframe.clientTop + padTop;
  const view = { left: x, top: y, right: x + iframe.clientWidth - padLeft - padRight, bottom: y + iframe.clientHeight - padTop - padBottom };
  const clip = clipBox(view, at.clip);
  if (clip) walkRoot(doc, walk, { x, y, clip, frameDepth: at.frameDepth + 1 });
}

/** The elements of `root` the custom selector matches, in document order. */
function selectorMatches(root: Document | ShadowRoot, selector: string | null): Element[] {
  if (!selector) return [];
  try {
    return Array.from(root.querySelectorAll(selector));
  } catch {
    return []; // An invalid selector is reported where the rules are compiled.
  }
}

/** Depth-first over one document or shadow root, by sibling links (cheaper than collections in Blink). */
function walkRoot(root: Document | ShadowRoot, walk: Walk, at: Placement): void {
  walk.onRoot(root);
  // A document's `activeElement` is the shadow host of a focused field inside it: each root has its own.
  const focused = root.activeElement;
  const matches = selectorMatches(root, walk.masker.rules.selector);
  walk.found.roots.push({ root, withheld: matches });
  const withheld: ReadonlySet<Element> = new Set(matches);
  // An editor's text may split a secret across elements (`jane<b>.doe</b>@…`): look at its whole text.
  // A document in `designMode` is one editor, its body.
  const hosts = Array.from(root.querySelectorAll('[contenteditable]'));
  const body = (root as Partial<Document>).body;
  if ((root as Partial<Document>).designMode === 'on' && body) hosts.unshift(body);
  for (const host of hosts) {
    if (host.getAttribute('contenteditable')?.toLowerCase() === 'false') continue;
    visitEditor(host, root, focused, walk, at);
  }
  let node: Node | null = root.firstChild;
  while (node) {
    let descend = false;
    if (node.nodeType === 3) visitText(node as Text, walk, at);
    else if (node.nodeType === 1) {
      const el = node as Element;
      const tag = el.localName;
      if (withheld.has(el)) addBox(walk, el, at);
      else if (tag === 'input' || tag === 'textarea' || tag === 'select') visitField(el, root, focused, walk, at);
      else if (tag === 'iframe' || tag === 'frame') visitFrame(el, walk, at);
      else if (!NOT_DESCENDED.has(tag)) {
        const shadow = el.shadowRoot;
        if (shadow) walkRoot(shadow, walk, at);
        descend = true;
      }
    }
    if (descend && node.firstChild) {
      node = node.firstChild;
      continue;
    }
    while (node && node !== root && !node.nextSibling) node = node.parentNode;
    node = node && node !== root ? node.nextSibling : null;
  }
}

/**
 * Where the page shows something the DOM redaction withholds or masks, as viewport rects of the
 * top document (CSS px, integers rounded outwards, clipped to the viewport): form fields
 * `classifySensitiveField` withholds; the focused text field or editor (`contenteditable`: it is
 * being typed into); fields and editors whose text the masker masks (or a free-text field or editor
 * with an address or number being typed: `jane@exam`, `4111 11`); elements the custom
 * selectors withhold; the masked part of any text node; the whole box of an iframe whose document
 * cannot be read (another origin). Open shadow roots and same-origin iframes are walked. Only fields, editors and text nodes the detectors' pre-checks let through (any text when
 * custom text patterns are set) are examined, and masking results are cached per node.
 * @example collectSensitiveRects(document) // [{ x: 24, y: 180, width: 320, height: 36 }]
 */
export function collectSensitiveRects(doc: Document, masker: TextMasker, rectOf: RectSource = rectsFromLayout, opts: CollectOptions = {}): ViewportRect[] {
  return createSensitiveRectCollector(() => masker, rectOf).collect(doc, opts);
}

/** `collectSensitiveRects` that remembers what it found, so the regions can be measured again cheaply. */
export interface SensitiveRectCollector {
  /** Walks every document and shadow root, as `collectSensitiveRects`; remembers what it found. */
  collect(doc: Document, opts?: CollectOptions): ViewportRect[];
  /**
   * The regions of what the last `collect` found, measured again, every form field examined again
   * (its value and the focus change without a DOM mutation): the rects a walk would give, at a
   * fraction of its cost, as long as no node was added, removed or changed since (the caller watches
   * the DOM with a MutationObserver) and no open shadow root was attached (no mutation shows that:
   * the caller walks again now and then). Null when it cannot stand in for a walk: nothing collected
   * yet, the rules changed, an iframe was met, the custom selectors match other elements now, or a
   * node it found is gone or changed.
   */
  remeasure(doc: Document, maxRects?: number): ViewportRect[] | null;
}

/** The viewport, `margin` CSS px bigger each way. */
function viewportClip(doc: Document, margin: number): Box | null {
  const view = doc.defaultView;
  const width = view?.innerWidth || doc.documentElement?.clientWidth || 0;
  const height = view?.innerHeight || doc.documentElement?.clientHeight || 0;
  return width > 0 && height > 0 ? { left: 0 - margin, top: 0 - margin, right: width + margin, bottom: height + margin } : null;
}

function sameElements(a: readonly Element[], b: readonly Element[]): boolean {
  return a.length === b.length && a.every((el, i) => el === b[i]);
}

/**
 * A collector of sensitive regions that can measure again what its last walk found. With
 * `viewportMargin`, it also reports what lies that many CSS px outside the viewport each way (what a
 * scroll is about to bring into view).
 * @example
 * const collector = createSensitiveRectCollector();
 * collector.collect(document); // after a DOM mutation
 * collector.remeasure(document) ?? collector.collect(document); // after focus moved or the page scrolled
 */
export function createSensitiveRectCollector(
  masker: () => TextMasker,
  rectOf: RectSource = rectsFromLayout,
  viewportMargin = 0,
): SensitiveRectCollector {
  let found: Found | null = null;
  return {
    collect(doc, opts = {}) {
      const current = masker();
      const walk: Walk = {
        rectOf,
        frameDocument: opts.frameDocument ?? sameOriginDocument,
        onRoot: opts.onRoot ?? (() => {}),
        masker: current,
        out: [],
        found: { masker: current, sources: [], roots: [], framed: false },
      };
      found = null;
      const clip = viewportClip(doc, viewportMargin);
      if (!clip) return [];
      walkRoot(doc, walk, { x: 0, y: 0, clip, frameDepth: 0 });
      found = walk.found;
      return capRects(walk.out, opts.maxRects ?? MAX_SENSITIVE_RECTS);
    },
    remeasure(doc, maxRects = MAX_SENSITIVE_RECTS) {
      if (!found || found.framed || found.masker !== masker() || found.roots[0]?.root !== doc) return null;
      const selector = found.masker.rules.selector;
      if (selector && !found.roots.every(({ root, withheld }) => sameElements(selectorMatches(root, selector), withheld))) return null;
      const clip = viewportClip(doc, viewportMargin);
      if (!clip) return [];
      const at: Placement = { x: 0, y: 0, clip, frameDepth: 0 };
      const out: ViewportRect[] = [];
      for (const source of found.sources) {
        if (source.kind === 'text') {
          if (source.node.nodeValue !== source.text || !source.node.isConnected) return null;
          add(out, spanRects(rectOf, source.node, source.span), at, idOf(source.node));
        } else if (!source.el.isConnected) return null;
        else if (source.kind === 'box') add(out, rectOf(source.el), at, idOf(source.el));
        else if (source.kind === 'editor') {
          if (editorIsSensitive(source.el, source.el.textContent ?? '', source.root.activeElement, found.masker)) add(out, rectOf(source.el), at, idOf(source.el));
        }
        else if (fieldIsSensitive(source.el, source.root.activeElement, source.classified, found.masker)) add(out, rectOf(source.el), at, idOf(source.el));
      }
      return capRects(out, maxRects);
    },
  };
}

import { classifySensitiveField } from './classify-field';
import { activeRedactionRules } from './custom-rules';
import { hasFieldValue } from './field-value';
import { cachedMaskedSpan, mayBeTypingPersonalData, mayHoldMaskedText } from './masked-span';
import { capRects, clipBox, roundOut, type Box, type ViewportRect } from './viewport-rect';

export type { ViewportRect } from './viewport-rect';

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

function sameOriginDocument(iframe: Element): Document | null {
  try {
    return (iframe as HTMLIFrameElement).contentDocument ?? null;
  } catch {
    return null;
  }
}

/** Subtrees never drawn as text (or handled as a whole): their text nodes are not looked at. */
const NOT_DESCENDED = new Set(['script', 'style', 'noscript', 'template', 'head', 'input', 'textarea', 'select', 'iframe', 'frame']);
/** Input types whose value is free text a person may type a secret into. */
const FREE_TEXT_TYPES = new Set(['', 'text', 'search', 'url']);
/** Input types typed into character by character (the free-text ones and the classified ones). */
const TYPED_TYPES = new Set([...FREE_TEXT_TYPES, 'email', 'tel', 'password', 'number']);

/** Deepest nesting of same-origin iframes walked. */
const MAX_FRAME_DEPTH = 8;

function inputType(el: Element): string {
  return (el.getAttribute('type') ?? '').trim().toLowerCase();
}

interface Walk {
  readonly rectOf: RectSource;
  readonly frameDocument: (iframe: Element) => Document | null;
  readonly onRoot: (root: Document | ShadowRoot) => void;
  readonly selector: string | null;
  readonly out: ViewportRect[];
}

/** A document's (or shadow root's) placement in the top viewport: offset of its coordinates, visible box. */
interface Placement {
  readonly x: number;
  readonly y: number;
  readonly clip: Box;
  readonly frameDepth: number;
}

function add(walk: Walk, rects: ArrayLike<RectLike>, at: Placement): void {
  for (let i = 0; i < rects.length; i++) {
    const r = rects[i]!;
    if (!(r.width > 0 && r.height > 0)) continue;
    const box = clipBox({ left: r.left + at.x, top: r.top + at.y, right: r.left + at.x + r.width, bottom: r.top + at.y + r.height }, at.clip);
    if (box) walk.out.push(roundOut(box));
  }
}

/** The text a field shows: its value (the chosen options of a select), else its placeholder. */
function shownText(el: Element): string {
  if (el.localName === 'select') {
    return Array.from((el as HTMLSelectElement).selectedOptions ?? [], (o) => o.text ?? o.textContent ?? '').join(' ');
  }
  const value = (el as HTMLInputElement).value;
  return (typeof value === 'string' && value) || el.getAttribute('placeholder') || '';
}

/** A text field or textarea: typed into character by character. */
function isTypedField(el: Element): boolean {
  return el.localName === 'textarea' || (el.localName === 'input' && TYPED_TYPES.has(inputType(el)));
}

/**
 * Whether `target` is a typed field that has the focus in its document or shadow root. Such a field
 * is a sensitive region for as long as it has the focus, whatever is typed into it: typing there
 * changes no region, only (perhaps) the layout.
 */
export function isFocusedTypedField(target: EventTarget | null): boolean {
  const el = target as Partial<Element> | null;
  if (!el || typeof el.getRootNode !== 'function' || typeof el.localName !== 'string') return false;
  const root = el.getRootNode() as Partial<DocumentOrShadowRoot>;
  return root.activeElement === el && hasFieldValue(el as Element) && isTypedField(el as Element);
}

/**
 * Whether a form field's pixels may show something the DOM redaction withholds or masks. A focused
 * field being typed into counts: its report is then sent when it gets the focus, well before the
 * first character is painted; a report sent on the `input` event races the frame showing it.
 */
function fieldIsSensitive(el: Element, focused: Element | null): boolean {
  if (!hasFieldValue(el)) return false;
  if (el === focused && isTypedField(el)) return true;
  if (classifySensitiveField(el)) return true;
  const text = shownText(el);
  if (!text) return false;
  if (cachedMaskedSpan(el, text)) return true;
  const freeText = el.localName === 'textarea' || (el.localName === 'input' && FREE_TEXT_TYPES.has(inputType(el)));
  return freeText && mayBeTypingPersonalData(text);
}

function visitText(node: Text, walk: Walk, at: Placement): void {
  const text = node.nodeValue;
  if (!text || !mayHoldMaskedText(text)) return;
  const span = cachedMaskedSpan(node, text);
  if (!span) return;
  const range = node.ownerDocument.createRange();
  range.setStart(node, span[0]);
  range.setEnd(node, span[1]);
  add(walk, walk.rectOf(range), at);
}

function visitFrame(iframe: Element, walk: Walk, at: Placement): void {
  if (at.frameDepth >= MAX_FRAME_DEPTH) return;
  const doc = walk.frameDocument(iframe);
  const box = walk.rectOf(iframe)[0];
  if (!doc || !box) return;
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

/** Depth-first over one document or shadow root, by sibling links (cheaper than collections in Blink). */
function walkRoot(root: Document | ShadowRoot, walk: Walk, at: Placement): void {
  walk.onRoot(root);
  // A document's `activeElement` is the shadow host of a focused field inside it: each root has its own.
  const focused = root.activeElement;
  let withheld: ReadonlySet<Element> = new Set();
  if (walk.selector) {
    try {
      withheld = new Set(root.querySelectorAll(walk.selector));
    } catch {
      // An invalid selector is reported where the rules are compiled.
    }
  }
  // An editor's text may split a secret across elements (`jane<b>.doe</b>@…`): look at its whole text.
  for (const host of Array.from(root.querySelectorAll('[contenteditable]'))) {
    if (host.getAttribute('contenteditable')?.toLowerCase() === 'false') continue;
    if (cachedMaskedSpan(host, host.textContent ?? '')) add(walk, walk.rectOf(host), at);
  }
  let node: Node | null = root.firstChild;
  while (node) {
    let descend = false;
    if (node.nodeType === 3) visitText(node as Text, walk, at);
    else if (node.nodeType === 1) {
      const el = node as Element;
      const tag = el.localName;
      if (withheld.has(el)) add(walk, walk.rectOf(el), at);
      else if (tag === 'input' || tag === 'textarea' || tag === 'select') {
        if (fieldIsSensitive(el, focused)) add(walk, walk.rectOf(el), at);
      } else if (tag === 'iframe' || tag === 'frame') visitFrame(el, walk, at);
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
 * `classifySensitiveField` withholds; the focused text field (it is being typed into); fields and
 * editors whose text `maskText` masks (or a free-text field with an address or number being typed:
 * `jane@exam`, `4111 11`); elements the custom
 * selectors withhold; the masked part of any text node. Open shadow roots and same-origin iframes
 * are walked. Only fields, editors and text nodes holding an `@` or seven digits (any text when
 * custom text patterns are set) are examined, and masking results are cached per node.
 * @example collectSensitiveRects(document) // [{ x: 24, y: 180, width: 320, height: 36 }]
 */
export function collectSensitiveRects(doc: Document, rectOf: RectSource = rectsFromLayout, opts: CollectOptions = {}): ViewportRect[] {
  const rules = activeRedactionRules();
  const walk: Walk = {
    rectOf,
    frameDocument: opts.frameDocument ?? sameOriginDocument,
    onRoot: opts.onRoot ?? (() => {}),
    selector: rules.selector,
    out: [],
  };
  const view = doc.defaultView;
  const width = view?.innerWidth || doc.documentElement?.clientWidth || 0;
  const height = view?.innerHeight || doc.documentElement?.clientHeight || 0;
  if (width <= 0 || height <= 0) return [];
  walkRoot(doc, walk, { x: 0, y: 0, clip: { left: 0, top: 0, right: width, bottom: height }, frameDepth: 0 });
  return capRects(walk.out, opts.maxRects ?? MAX_SENSITIVE_RECTS);
}

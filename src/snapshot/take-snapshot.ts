import type { PageSnapshot, SnapshotNode } from '../../schemas/snapshot';
import { hasFieldValue, readFieldValue } from '../redact/field-value';
import { withheldBySelector } from '../redact/custom-rules';
import type { TextMasker } from '../redact/mask-text';
import { createRedactionCounts, type RedactionTally } from '../redact/redaction-counts';
import { redactUrl } from '../redact/redact-url';
import { accessibleName } from './accessible-name';
import { roleOf } from './implicit-role';
import { READ_TEXT_LIMIT, collapseWhitespace } from './readable-text';
import { pickSafeAttributes } from './safe-attributes';

export interface SnapshotOptions {
  /** Most element nodes in the tree; past it the snapshot is `truncated`. */
  maxNodes?: number;
  /** Deepest element nesting kept (iframes and shadow roots included); deeper is `truncated`. */
  maxDepth?: number;
  /** Longest visible text kept per node, after masking. */
  maxTextChars?: number;
  now?: () => number;
  /** An iframe's document when the recorder may read it, else null (cross-origin, sandboxed). */
  frameDocument?: (iframe: Element) => Document | null;
}

export const SNAPSHOT_DEFAULTS = { maxNodes: 5000, maxDepth: 100, maxTextChars: 300 } as const;

/** Elements never recorded: code, metadata, inert templates. */
export const SKIPPED: ReadonlySet<string> = new Set(['script', 'style', 'noscript', 'template', 'head', 'meta', 'link', 'base', 'title']);
/** Elements recorded without their subtree. */
export const LEAVES: ReadonlySet<string> = new Set(['svg', 'math', 'canvas', 'video', 'audio', 'object', 'embed', 'textarea', 'img', 'input']);
/** Elements whose name is worth computing even without a role. */
export const NAME_ATTRIBUTES = ['aria-label', 'aria-labelledby', 'title', 'alt', 'placeholder'];

interface Walk {
  readonly maxNodes: number;
  readonly maxDepth: number;
  readonly maxTextChars: number;
  readonly frameDocument: (iframe: Element) => Document | null;
  readonly counts: RedactionTally;
  readonly masker: TextMasker;
  nodes: number;
  truncated: boolean;
}

/** Same-origin documents are readable; a cross-origin frame's `contentDocument` is null (or throws). */
export function defaultFrameDocument(iframe: Element): Document | null {
  try {
    return (iframe as HTMLIFrameElement).contentDocument ?? null;
  } catch {
    return null;
  }
}

function rectOf(el: Element, offset: { x: number; y: number }): SnapshotNode['rect'] {
  const r = el.getBoundingClientRect();
  return {
    x: Math.round(r.left + offset.x),
    y: Math.round(r.top + offset.y),
    width: Math.round(r.width),
    height: Math.round(r.height),
  };
}

/** Element children and direct text of one parent, gathered in a single pass over its child nodes. */
export interface Children {
  elements: Element[];
  rawText: string;
}

function addChild(c: Node, into: Children): void {
  if (c.nodeType === 1) into.elements.push(c as Element);
  else if (c.nodeType === 3 && into.rawText.length < READ_TEXT_LIMIT) into.rawText += ` ${c.nodeValue ?? ''}`;
}

/**
 * What to walk under `el`: its open shadow root's children (a `<slot>` in a shadow tree shows the
 * light-DOM nodes assigned to it, as rendered) or its own children. Linked-list iteration: reading
 * `children` into an array costs a collection lookup per item in Blink.
 */
export function childrenOf(el: Element, node: SnapshotNode): Children {
  const into: Children = { elements: [], rawText: '' };
  if (el.localName === 'slot' && el.getRootNode() !== el.ownerDocument) {
    const assigned = (el as HTMLSlotElement).assignedNodes?.({ flatten: true }) ?? [];
    if (assigned.length) {
      for (const c of assigned) addChild(c, into);
      return into;
    }
  }
  const parent: Node = el.shadowRoot ?? el;
  if (el.shadowRoot) node.shadow_root = true;
  for (let c = parent.firstChild; c; c = c.nextSibling) addChild(c, into);
  return into;
}

function snapshotFrame(el: Element, node: SnapshotNode, depth: number, walk: Walk): void {
  const doc = walk.frameDocument(el);
  if (!doc) {
    node.frame = 'cross-origin';
    return;
  }
  node.frame = 'same-origin';
  if (!doc.body) return;
  // Frame content rects are relative to the frame's viewport: shift them into the page's.
  const offset = { x: (node.rect?.x ?? 0) + el.clientLeft, y: (node.rect?.y ?? 0) + el.clientTop };
  const body = snapshotElement(doc.body, depth + 1, walk, offset);
  if (body) node.children = [body];
}

function snapshotElement(el: Element, depth: number, walk: Walk, offset: { x: number; y: number }): SnapshotNode | null {
  const tag = el.localName;
  if (SKIPPED.has(tag)) return null;
  if (walk.nodes >= walk.maxNodes) {
    walk.truncated = true;
    return null;
  }
  walk.nodes++;
  const node: SnapshotNode = { tag };
  const role = roleOf(el);
  if (role) node.role = role;
  if (withheldBySelector(el, walk.masker.rules) && !hasFieldValue(el)) {
    // A custom rule withholds this element: its box stays (so it can be masked in pixels); its
    // attributes, name, text and subtree go.
    walk.counts.fields.custom++;
    node.rect = rectOf(el, offset);
    node.value_redacted = true;
    node.redaction_kind = 'custom';
    return node;
  }
  const attributes = pickSafeAttributes(el, walk.counts.text, walk.masker);
  if (attributes) node.attributes = attributes;
  if (role || NAME_ATTRIBUTES.some((a) => el.hasAttribute(a))) {
    const name = accessibleName(el, walk.masker, walk.counts.text, role);
    if (name) node.name = name;
  }
  node.rect = rectOf(el, offset);
  const field = readFieldValue(el, walk.counts, walk.masker);
  if (field) {
    node.value = field.value;
    if (field.value_redacted) node.value_redacted = true;
    if (field.redaction_kind) node.redaction_kind = field.redaction_kind;
  }
  if (tag === 'input' && /^(checkbox|radio)$/i.test(el.getAttribute('type') ?? '')) {
    node.checked = Boolean((el as HTMLInputElement).checked);
  }
  if (tag === 'iframe' || tag === 'frame') {
    if (depth < walk.maxDepth) snapshotFrame(el, node, depth, walk);
    else walk.truncated = true;
    return node;
  }
  // A sensitive select's options would show the chosen one (`selected`); leaves have no useful subtree.
  if (LEAVES.has(tag) || (tag === 'select' && node.value_redacted)) return node;
  const { elements, rawText } = childrenOf(el, node);
  if (rawText.trim()) {
    const text = walk.masker.maskAndCap(collapseWhitespace(rawText), walk.maxTextChars, walk.counts.text);
    if (text) node.text = text;
  }
  if (!elements.length) return node;
  if (depth >= walk.maxDepth) {
    walk.truncated = true;
    return node;
  }
  const children: SnapshotNode[] = [];
  for (const child of elements) {
    const c = snapshotElement(child, depth + 1, walk, offset);
    if (c) children.push(c);
    if (walk.nodes >= walk.maxNodes) {
      if (child !== elements[elements.length - 1]) walk.truncated = true;
      break;
    }
  }
  if (children.length) node.children = children;
  return node;
}

/**
 * The page's element tree as the failure bundle's `snapshot.json` carries it: tags, roles, names,
 * masked text, safe attributes, rects and field values, with every sensitive value withheld and
 * every mask counted. `<head>`, scripts and styles are left out; nodes that are not rendered are kept
 * (their rect is 0×0). Open shadow roots and same-origin iframes are walked; at most
 * `maxNodes` elements, depth-first, are kept. Text is masked with `masker` (the context's settings).
 */
export function takeSnapshot(doc: Document, masker: TextMasker, opts: SnapshotOptions = {}): PageSnapshot {
  const walk: Walk = {
    maxNodes: opts.maxNodes ?? SNAPSHOT_DEFAULTS.maxNodes,
    maxDepth: opts.maxDepth ?? SNAPSHOT_DEFAULTS.maxDepth,
    maxTextChars: opts.maxTextChars ?? SNAPSHOT_DEFAULTS.maxTextChars,
    frameDocument: opts.frameDocument ?? defaultFrameDocument,
    counts: createRedactionCounts(),
    masker,
    nodes: 1,
    truncated: false,
  };
  const root: SnapshotNode = { tag: doc.documentElement?.localName ?? 'html' };
  if (doc.body) {
    const body = snapshotElement(doc.body, 1, walk, { x: 0, y: 0 });
    if (body) root.children = [body];
  }
  const view = doc.defaultView;
  return {
    url: redactUrl(doc.URL, masker, walk.counts.text),
    title: masker.maskAndCap(doc.title ?? '', walk.maxTextChars, walk.counts.text),
    taken_at: (opts.now ?? Date.now)(),
    viewport: {
      width: view?.innerWidth ?? 0,
      height: view?.innerHeight ?? 0,
      scroll_x: Math.round(view?.scrollX ?? 0),
      scroll_y: Math.round(view?.scrollY ?? 0),
    },
    node_count: walk.nodes,
    truncated: walk.truncated,
    root,
    redaction: walk.counts,
  };
}

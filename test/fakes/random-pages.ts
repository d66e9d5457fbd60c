// Test support only (imported by the DOM timeline's tests): deterministic random pages and mutations.
import type { SnapshotNode } from '../../schemas/snapshot';
import type { TimelineNode } from '../../schemas/timeline';

/** A small seeded generator (mulberry32), so a failing property run can be replayed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A snapshot node with neither rect nor id: what a timeline node and a `takeSnapshot` node share. */
export function comparable(node: SnapshotNode | TimelineNode): unknown {
  const { children, ...fields } = node as SnapshotNode & { id?: number };
  const rest: Record<string, unknown> = { ...fields };
  delete rest.rect;
  delete rest.id;
  return children ? { ...rest, children: children.map(comparable) } : rest;
}

// No `form`: happy-dom hands out a Proxy for a form element but reports the unwrapped object as a
// MutationRecord's target, so the two never compare equal there (they do in browsers).
const TAGS = ['div', 'p', 'span', 'button', 'a', 'li', 'h2', 'label', 'section', 'input', 'dialog'];
const WORDS = ['cart', 'total', 'Place order', 'error', 'mail jo.planted@example.com', 'Shipping', '3', 'ok'];

function pick<T>(rnd: () => number, list: readonly T[]): T {
  return list[Math.floor(rnd() * list.length)]!;
}

function newElement(doc: Document, rnd: () => number): Element {
  const el = doc.createElement(pick(rnd, TAGS));
  if (el.localName === 'a') el.setAttribute('href', `/p/${Math.floor(rnd() * 100)}`);
  if (el.localName === 'input') el.setAttribute('name', pick(rnd, ['q', 'city', 'password', 'email']));
  else el.textContent = pick(rnd, WORDS);
  return el;
}

/** One random DOM change under `root`: add, remove, move, retext, set or drop an attribute, type a value. */
export function mutateRandomly(doc: Document, root: Element, rnd: () => number): void {
  const all = [root, ...Array.from(root.querySelectorAll('*'))];
  const target = pick(rnd, all);
  const r = rnd();
  if (r < 0.25) {
    const parent = target.localName === 'input' ? root : target;
    const ref = parent.children.length ? pick(rnd, Array.from(parent.children)) : null;
    parent.insertBefore(newElement(doc, rnd), rnd() < 0.5 ? ref : null);
  } else if (r < 0.4) {
    if (target !== root) target.remove();
  } else if (r < 0.5) {
    const dest = pick(rnd, all);
    if (target !== root && !target.contains(dest) && dest.localName !== 'input') dest.appendChild(target);
  } else if (r < 0.65) {
    if (target.localName !== 'input') target.textContent = pick(rnd, WORDS);
  } else if (r < 0.75) {
    const text = Array.from(target.childNodes).find((n) => n.nodeType === 3);
    if (text) text.nodeValue = pick(rnd, WORDS);
  } else if (r < 0.87) {
    target.setAttribute(pick(rnd, ['class', 'title', 'aria-expanded', 'hidden', 'data-x', 'aria-label']), pick(rnd, WORDS));
  } else if (r < 0.93) {
    target.removeAttribute(pick(rnd, ['class', 'title', 'hidden', 'aria-label']));
  } else if (target.localName === 'input') {
    (target as HTMLInputElement).value = pick(rnd, ['Paris', 'hunter2', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJlX3BsYW50ZWQ']);
    target.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  }
}

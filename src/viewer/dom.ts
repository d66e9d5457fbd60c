/** Children accepted by `h`: nodes, or strings that become text nodes (never parsed as HTML). */
export type Child = Node | string | null | undefined | false;

export interface Props {
  className?: string;
  title?: string;
  /** Attributes set with `setAttribute` (values are plain strings, never markup). */
  attrs?: Record<string, string>;
  /** `data-*` attributes, by the name after `data-`. */
  data?: Record<string, string>;
  on?: Partial<{ [K in keyof HTMLElementEventMap]: (event: HTMLElementEventMap[K]) => void }>;
}

/**
 * Creates an element. Bundle text comes from arbitrary web pages, so every string child goes in as a
 * text node: this module is the only place the viewer builds DOM, and it never touches `innerHTML`.
 */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props | null = null, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (props?.className) element.className = props.className;
  if (props?.title) element.title = props.title;
  for (const [name, value] of Object.entries(props?.attrs ?? {})) element.setAttribute(name, value);
  for (const [name, value] of Object.entries(props?.data ?? {})) element.dataset[name] = value;
  for (const [type, listener] of Object.entries(props?.on ?? {})) element.addEventListener(type, listener as EventListener);
  append(element, ...children);
  return element;
}

/** Bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069). */
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text as the viewer shows it: a bidi control from a page or a bundle (`U+202E` turns what follows
 * backwards, so `exe.txt` reads as a harmless name) is shown as its escape, `\u202e`, never obeyed.
 * Right-to-left text needs none of them: its letters carry their own direction.
 */
export const shownText = (text: string): string => text.replace(BIDI_CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** Appends children, strings as text nodes (`shownText`). */
export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' ? document.createTextNode(shownText(child)) : child);
  }
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** Creates an SVG element; attribute values are plain strings (numbers as text), never markup. */
export function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number> = {}, ...children: SVGElement[]): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, String(value));
  element.append(...children);
  return element;
}

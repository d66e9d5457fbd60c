/** Children accepted by `h`: nodes, or strings that become text nodes (never parsed as HTML). */
export type Child = Node | string | null | undefined | false;

/** What `h` sets on an element besides its children. */
export interface Props {
  className?: string;
  title?: string;
  /** Attributes set with `setAttribute` (plain strings, never markup). */
  attrs?: Record<string, string>;
  /** `data-*` attributes, by the name after `data-`. */
  data?: Record<string, string>;
  on?: Partial<{ [K in keyof HTMLElementEventMap]: (event: HTMLElementEventMap[K]) => void }>;
}

/**
 * Creates an element. Bundle labels, URLs and page samples come from arbitrary web pages, so every
 * string child goes in as a text node: the operator pages build DOM only here, never with `innerHTML`.
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

/** Appends children, strings as text nodes. */
export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  }
}

/** The message of anything thrown. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

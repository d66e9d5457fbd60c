import { quote, token } from '../shared/quote';

/*
 * How one element reads as a line of a page outline, for every outline there is: `outline.md` in the
 * bundle (`page-outline.ts`) and `afr dom` / `get_dom` (`reads/dom-outline.ts`). Every string from the
 * page (or from a bundle someone edited) goes through `quote`, so no name, text, value, id or attribute
 * can break the line, close its quote or pass for the outline's own marks (`[12]`, `◀ target`, an
 * indented `- `). A withheld value is never shown: only that it was withheld, and why.
 */

/**
 * What an outline reads of an element: a `snapshot.json` node, a rebuilt timeline node, or the node of
 * a `dom` read (whose absent fields are null).
 */
export interface OutlineElement {
  tag: string;
  role?: string | null;
  name?: string | null;
  text?: string | null;
  attributes?: Record<string, string>;
  value?: string | null;
  value_redacted?: boolean;
  redaction_kind?: string | null;
  checked?: boolean | null;
  shadow_root?: boolean;
  frame?: string | null;
}

/** The mark on the element a step's action hit. */
export const TARGET_MARK = '◀ target';

/**
 * `compact`, for reading (`outline.md`): the role (the tag without one) and the name, the attributes a
 * reader acts on, the element's id. `full`, for addressing (`afr dom`): `tag#id.class` as a selector
 * matches it, `role=`, `name=`, and every attribute the snapshot kept (the first 6, the rest counted).
 */
export type LineStyle = 'compact' | 'full';

/** Tags that say nothing by themselves: a folded outline shows them only through what they hold. */
const WRAPPERS = new Set(['div', 'span', 'section', 'article', 'header', 'footer', 'p', 'body', 'html', 'center', 'font', 'b', 'i', 'em', 'strong', 'small']);
/** Attributes a compact line shows: states a reader acts on. */
const STATE_ATTRIBUTES = ['disabled', 'required', 'readonly', 'aria-expanded', 'aria-selected', 'aria-invalid', 'aria-disabled', 'aria-current', 'href', 'type'];
const MAX_ATTRIBUTES = 6;

/** `disabled` for a boolean attribute (`disabled=""`, `disabled="disabled"`), else `type="submit"`. */
const attribute = (name: string, value: string) => (value === '' || value === name ? token(name) : `${token(name)}=${quote(value, 60)}`);

/** `input#pw.field` when it reads as a selector, else the whole of it quoted. */
function selectorHead(element: OutlineElement): string {
  const id = element.attributes?.id;
  const classes = element.attributes?.class?.trim();
  const head = `${element.tag}${id ? `#${id}` : ''}${classes ? `.${classes.split(/\s+/).join('.')}` : ''}`;
  return /^[\w#.:-]{1,80}$/.test(head) ? head : quote(head, 80);
}

function attributeParts(element: OutlineElement, style: LineStyle): string[] {
  const attributes = element.attributes ?? {};
  if (style === 'compact') return STATE_ATTRIBUTES.filter((name) => attributes[name] !== undefined).map((name) => attribute(name, attributes[name]!));
  const names = Object.keys(attributes).filter((name) => name !== 'id' && name !== 'class');
  const parts = names.slice(0, MAX_ATTRIBUTES).map((name) => attribute(name, attributes[name]!));
  if (names.length > MAX_ATTRIBUTES) parts.push(`(+${names.length - MAX_ATTRIBUTES} attributes)`);
  return parts;
}

/**
 * One element's own words in an outline (no indent, number or target mark: the outline adds those):
 * who it is, its attributes, its value (or `value withheld (password)`), checked state, shadow root or
 * frame, and its text when the text says more than the name.
 * @example describeElement({ tag: 'input', role: 'textbox', name: 'Email', value: null, value_redacted: true, redaction_kind: 'email' }, 'compact')
 * // 'textbox "Email" value withheld (email)'
 */
export function describeElement(element: OutlineElement, style: LineStyle): string {
  const parts =
    style === 'compact'
      ? [token(element.role ?? element.tag), ...(element.name ? [quote(element.name, 80)] : [])]
      : [selectorHead(element), ...(element.role ? [`role=${token(element.role)}`] : []), ...(element.name ? [`name=${quote(element.name, 80)}`] : [])];
  parts.push(...attributeParts(element, style));
  if (element.value_redacted) parts.push(`value withheld${element.redaction_kind ? ` (${token(element.redaction_kind)})` : ''}`);
  else if (element.value != null) parts.push(`value=${quote(element.value, 60)}`);
  if (element.checked != null) parts.push(element.checked ? 'checked' : 'unchecked');
  if (element.shadow_root) parts.push('(shadow root)');
  if (element.frame) parts.push(`(${token(element.frame)} frame)`);
  const id = element.attributes?.id;
  if (style === 'compact' && id) parts.push(`#${/^[\w:-]{1,40}$/.test(id) ? id : quote(id, 40)}`);
  if (element.text && element.text !== element.name) parts.push(`text=${quote(element.text, 100)}`);
  return parts.join(' ');
}

/**
 * Whether a folded outline (`outline.md`) gives the element no line of its own: a wrapper tag with no
 * role and nothing to say but its tag. What it holds takes its place, a level up.
 */
export function isBareWrapper(element: OutlineElement): boolean {
  return !element.role && WRAPPERS.has(element.tag) && describeElement(element, 'compact') === element.tag;
}

import { hasFieldValue } from './field-value';
import type { TextMasker } from './mask-text';
import { cachedMaskedSpan, mayBeTypingPersonalData } from './masked-span';

/** Input types whose value is free text a person may type a secret into. */
const FREE_TEXT_TYPES = new Set(['', 'text', 'search', 'url']);
/** Input types typed into character by character (the free-text ones and the classified ones). */
const TYPED_TYPES = new Set([...FREE_TEXT_TYPES, 'email', 'tel', 'password', 'number']);

function inputType(el: Element): string {
  return (el.getAttribute('type') ?? '').trim().toLowerCase();
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

/** An editor (`contenteditable`, or the body of a document in `designMode`) other than a form field: typed into like a text field. */
export function isEditor(el: Element): boolean {
  if ((el as Partial<HTMLElement>).isContentEditable === true) return true;
  return el.localName === 'body' && el.ownerDocument?.designMode === 'on';
}

/**
 * Whether an editor may show something the DOM redaction masks in its pixels, as a text field may
 * (`fieldIsSensitive`): it holds the focus (being typed into, each key may complete a secret; a
 * rich-text editor types into a child span, and the focus is the editor or an editable island in
 * it), its text is masked, or its text may be a secret being typed (`jane@exam`).
 */
export function editorIsSensitive(host: Element, text: string, focused: Element | null, masker: TextMasker): boolean {
  if (focused && (focused === host || host.contains(focused)) && isEditor(focused)) return true;
  if (!text) return false;
  return cachedMaskedSpan(host, text, masker) !== null || mayBeTypingPersonalData(text);
}

/**
 * Whether a form field (one with a value) may show something the DOM redaction withholds or masks
 * in its pixels: `classified` by `classifySensitiveField`, or its text masked. A focused field being
 * typed into counts: its report is then sent when it gets the focus, well before the first character
 * is painted; a report sent on the `input` event races the frame showing it.
 */
export function fieldIsSensitive(el: Element, focused: Element | null, classified: boolean, masker: TextMasker): boolean {
  if (classified) return true;
  if (el === focused && isTypedField(el)) return true;
  const text = shownText(el);
  if (!text) return false;
  if (cachedMaskedSpan(el, text, masker)) return true;
  const freeText = el.localName === 'textarea' || (el.localName === 'input' && FREE_TEXT_TYPES.has(inputType(el)));
  return freeText && mayBeTypingPersonalData(text);
}

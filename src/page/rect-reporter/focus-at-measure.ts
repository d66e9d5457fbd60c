import { isFocusedTypedField } from '../../redact/sensitive-rects';

/** The focused element, looking into open shadow roots and same-origin iframes. */
export function deepActiveElement(doc: Document): Element | null {
  let el: Element | null = doc.activeElement;
  for (let depth = 0; el && depth < 16; depth++) {
    let inner: Element | null = el.shadowRoot?.activeElement ?? null;
    if (!inner && (el.localName === 'iframe' || el.localName === 'frame')) {
      try {
        inner = (el as HTMLIFrameElement).contentDocument?.activeElement ?? null;
      } catch {
        inner = null; // another origin
      }
    }
    if (!inner || inner === el) break;
    el = inner;
  }
  return el;
}

/** The element that had the focus when the regions were last measured. */
export interface FocusAtMeasure {
  /** The regions were measured now: remember where the focus is. */
  note(doc: Document): void;
  /**
   * `target` (where an `input` event came from) is the focused text field the last measurement saw
   * focused: that report holds its region already, so a character typed moves at most its layout.
   */
  typingInto(target: EventTarget | null): boolean;
}

/** Remembers the focus at each measurement (through shadow roots and iframes). */
export function rememberFocusAtMeasure(): FocusAtMeasure {
  let focused: Element | null = null;
  return {
    note: (doc) => {
      focused = deepActiveElement(doc);
    },
    typingInto: (target) => target === focused && isFocusedTypedField(target),
  };
}

/**
 * The `<label>` elements of a form field. Blink's `labels` walks the whole tree scope on every
 * call, which made each full snapshot quadratic on pages with many fields (2,500 fields in 50,000
 * elements: seconds). Without an id only a wrapping label can label a field, so that case is read
 * from the ancestors; a wrapping label is taken even when the field is not its first one (it still
 * describes the field to a reader, and for redaction more context is the safe side).
 */
export function fieldLabels(el: Element): Element[] {
  if (!el.id) {
    const wrapping = el.closest('label');
    return wrapping && !wrapping.hasAttribute('for') ? [wrapping] : [];
  }
  // `labels` covers `<label for>` and a wrapping `<label>` and works across realms (iframes).
  const labels = (el as Partial<HTMLInputElement>).labels;
  if (labels) return Array.from(labels);
  const wrapping = el.closest('label');
  return wrapping ? [wrapping] : [];
}

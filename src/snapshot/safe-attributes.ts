import type { TextMaskCounts } from '../redact/redaction-counts';
import type { TextMasker } from '../redact/mask-text';
import { redactUrl } from '../redact/redact-url';

/** Longest attribute value kept. */
export const MAX_ATTRIBUTE_CHARS = 300;

/** Attributes holding URLs: they go through `redactUrl`. */
const URL_ATTRIBUTES = new Set(['href', 'src', 'action']);

/**
 * The only attributes a snapshot keeps. Never `value` (a field's initial value may be a secret),
 * never `data-*` (apps stash tokens there), `style` or event handlers.
 */
const SAFE_ATTRIBUTES = new Set([
  'id',
  'class',
  'name',
  'type',
  'role',
  'href',
  'src',
  'action',
  'method',
  'alt',
  'title',
  'placeholder',
  'for',
  'autocomplete',
  'aria-label',
  'aria-expanded',
  'aria-invalid',
  'aria-disabled',
  'aria-checked',
  'aria-selected',
  'aria-current',
  'aria-hidden',
  'disabled',
  'checked',
  'selected',
  'required',
  'readonly',
  'hidden',
  'open',
]);

/** The element's safe attributes, URLs redacted and text masked; undefined when there are none. */
export function pickSafeAttributes(el: Element, counts: TextMaskCounts, masker: TextMasker): Record<string, string> | undefined {
  let out: Record<string, string> | undefined;
  const attrs = el.attributes;
  for (let i = 0; i < attrs.length; i++) {
    const attr = attrs[i]!;
    const name = attr.name.toLowerCase();
    if (!SAFE_ATTRIBUTES.has(name)) continue;
    const value = URL_ATTRIBUTES.has(name)
      ? redactUrl(attr.value, masker, counts).slice(0, 2 * MAX_ATTRIBUTE_CHARS)
      : masker.maskAndCap(attr.value, MAX_ATTRIBUTE_CHARS, counts);
    (out ??= {})[name] = value;
  }
  return out;
}

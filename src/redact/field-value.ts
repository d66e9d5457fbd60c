import type { RedactionKind } from '../../schemas/snapshot';
import { classifySensitiveField } from './classify-field';
import type { TextMasker } from './mask-text';
import type { RedactionTally } from './redaction-counts';

/** A form field's value as it may be recorded. */
export interface FieldValue {
  /** Masked value; null when the field is sensitive. */
  value: string | null;
  value_redacted: boolean;
  redaction_kind?: RedactionKind;
}

/** Longest field value kept. */
export const MAX_FIELD_VALUE_CHARS = 1024;

const VALUE_TAGS = new Set(['input', 'textarea', 'select']);
const NO_VALUE_TYPES = new Set(['checkbox', 'radio', 'submit', 'button', 'reset', 'image', 'file']);

/** True for elements whose `value` is data the user typed or chose. */
export function hasFieldValue(el: Element): boolean {
  if (!VALUE_TAGS.has(el.localName)) return false;
  return el.localName !== 'input' || !NO_VALUE_TYPES.has((el.getAttribute('type') ?? '').trim().toLowerCase());
}

function rawValue(el: Element): string {
  if (el.localName === 'select') {
    const options = Array.from((el as HTMLSelectElement).selectedOptions ?? []);
    return options.map((o) => o.value).join(', ');
  }
  const v = (el as HTMLInputElement).value;
  return typeof v === 'string' ? v : '';
}

/**
 * The value of an input, textarea or select: withheld (`value: null, value_redacted: true`) when
 * `classifySensitiveField` says so, else masked with `masker` and capped. Null for elements
 * without a recordable value (buttons, checkboxes, file inputs, non-fields). Adds to `counts`.
 */
export function readFieldValue(
  el: Element,
  counts: RedactionTally,
  masker: TextMasker,
  cap: number = MAX_FIELD_VALUE_CHARS,
): FieldValue | null {
  if (!hasFieldValue(el)) return null;
  const kind = classifySensitiveField(el, masker.rules, masker.knownSecrets);
  if (kind) {
    counts.fields[kind]++;
    return { value: null, value_redacted: true, redaction_kind: kind };
  }
  return { value: masker.maskAndCap(rawValue(el), cap, counts.text), value_redacted: false };
}

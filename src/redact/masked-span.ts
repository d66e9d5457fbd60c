import { activeRedactionRules, type CompiledRedactionRules } from './custom-rules';
import { maskText } from './mask-text';

/** Where in a text the masks fall: `[start, end)` from the first masked character to the last. */
export type MaskedSpan = readonly [start: number, end: number];

/** The longest mask token (`[redacted]`): how far a common prefix or suffix can overshoot a custom match. */
const LONGEST_MASK = 10;

/**
 * False when `maskText` cannot mask anything in `text`, checked without running it: the built-in
 * masks need an `@` (addresses) or seven digits (the shortest phone number); a custom text pattern
 * can match anything.
 */
export function mayHoldMaskedText(text: string): boolean {
  if (activeRedactionRules().textPatterns.length || text.includes('@')) return true;
  let digits = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57 && ++digits >= 7) return true;
  }
  return false;
}

/**
 * The span of `text` that `maskText` masks, or null when it masks nothing. One span covers every
 * mask (from the first to the last): exact for one secret, a superset for several. Found from the
 * common prefix and suffix of the text and its masked form: a built-in secret never starts with `[`
 * or ends with `]` as the mask tokens do, so the boundaries are exact; a custom pattern may, so the
 * span is then widened by the longest mask.
 */
export function maskedSpan(text: string): MaskedSpan | null {
  if (!mayHoldMaskedText(text)) return null;
  const masked = maskText(text).text;
  if (masked === text) return null;
  let prefix = 0;
  while (prefix < text.length && prefix < masked.length && text[prefix] === masked[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < text.length - prefix &&
    suffix < masked.length - prefix &&
    text[text.length - 1 - suffix] === masked[masked.length - 1 - suffix]
  ) {
    suffix++;
  }
  const margin = activeRedactionRules().textPatterns.length ? LONGEST_MASK : 0;
  const start = Math.max(0, prefix - margin);
  const end = Math.min(text.length, Math.max(text.length - suffix + margin, start + 1));
  return [start, end];
}

interface CachedSpan {
  text: string;
  rules: CompiledRedactionRules;
  span: MaskedSpan | null;
}

const cache = new WeakMap<object, CachedSpan>();

/**
 * `maskedSpan` of a node's current text, remembered per node: most text does not change between two
 * reports, and a string comparison is cheaper than the regular expressions. Rule changes invalidate.
 */
export function cachedMaskedSpan(owner: object, text: string): MaskedSpan | null {
  const rules = activeRedactionRules();
  const hit = cache.get(owner);
  if (hit && hit.rules === rules && hit.text === text) return hit.span;
  const span = maskedSpan(text);
  cache.set(owner, { text, rules, span });
  return span;
}

// A value being typed, before `maskText` can recognise it: an `@` after a local part (an address
// without its domain yet), or six digits in a run of digits and phone or card separators.
const TYPING_EMAIL = /[^\s@]@/;
const TYPING_NUMBER = /\d(?:[\s().+-]{0,3}\d){5}/;

/**
 * True when a field's value could be personal data still being typed: `jane.doe@exam` or
 * `4111 11` are not masked by `maskText` yet, but their pixels would show part of the secret.
 */
export function mayBeTypingPersonalData(value: string): boolean {
  return TYPING_EMAIL.test(value) || TYPING_NUMBER.test(value);
}

import { mayBeTypingSecret } from './detectors';
import { TEXT_MASKS, type TextMasker } from './mask-text';
import { TEXT_MASK_KINDS } from './redaction-counts';

/** Where in a text the masks fall: `[start, end)` from the first masked character to the last. */
export type MaskedSpan = readonly [start: number, end: number];

/**
 * The span of `text` that `masker` masks, or null when it masks nothing. One span covers every
 * mask (from the first to the last): exact for one secret, a superset for several. Found from the
 * common prefix and suffix of the text and its masked form: a secret of the built-in personal-data
 * detectors never starts with `[` or ends with `]` as the mask tokens do, so the boundaries are exact;
 * a custom pattern or a credential value may, so the span is then widened by the longest mask.
 */
export function maskedSpan(text: string, masker: TextMasker): MaskedSpan | null {
  if (!masker.mayHold(text)) return null;
  const { text: masked, counts } = masker.mask(text);
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
  const mayOvershoot = masker.rules.textPatterns.length > 0 || (counts.credential > 0 && (text.includes('[') || text.includes(']')));
  // How far a common prefix or suffix can overshoot a match: the longest mask token used here.
  let margin = 0;
  if (mayOvershoot) for (const kind of TEXT_MASK_KINDS) if (counts[kind] > 0) margin = Math.max(margin, TEXT_MASKS[kind].length);
  const start = Math.max(0, prefix - margin);
  const end = Math.min(text.length, Math.max(text.length - suffix + margin, start + 1));
  return [start, end];
}

interface CachedSpan {
  text: string;
  masker: TextMasker;
  span: MaskedSpan | null;
}

const cache = new WeakMap<object, CachedSpan>();

/**
 * `maskedSpan` of a node's current text, remembered per node: most text does not change between two
 * reports, and a string comparison is cheaper than the regular expressions. A new masker (new rules)
 * invalidates.
 */
export function cachedMaskedSpan(owner: object, text: string, masker: TextMasker): MaskedSpan | null {
  const hit = cache.get(owner);
  if (hit && hit.masker === masker && hit.text === text) return hit.span;
  const span = maskedSpan(text, masker);
  cache.set(owner, { text, masker, span });
  return span;
}

/**
 * True when a field's value could be a secret still being typed: `jane.doe@exam`, `4111 11` or
 * `ghp_` are not masked yet, but their pixels would show part of the secret. The detectors say
 * what each of them looks like when begun.
 */
export const mayBeTypingPersonalData: (value: string) => boolean = mayBeTypingSecret;

import type { RedactionKind } from '../../schemas/snapshot';
import { sensitiveWordKind } from './sensitive-words';
import { withheldBySelector, type CompiledRedactionRules } from './custom-rules';
import { fieldLabels } from './field-labels';
import type { KnownSecrets } from './known-secrets';

/** Input types whose value is never user data worth recording (or is recorded as `checked`). */
const VALUELESS_INPUT_TYPES = new Set(['checkbox', 'radio', 'submit', 'button', 'reset', 'image', 'file', 'range', 'color']);

/** The field kinds implied by `autocomplete` tokens (WHATWG autofill field names). */
function autocompleteKind(autocomplete: string | null): RedactionKind | null {
  if (!autocomplete) return null;
  for (const token of autocomplete.toLowerCase().split(/\s+/)) {
    if (token === 'cc-csc') return 'cvv';
    if (token.startsWith('cc-')) return 'credit_card';
    if (token === 'one-time-code') return 'one_time_code';
    if (token === 'current-password' || token === 'new-password') return 'password';
    if (token === 'email') return 'email';
    if (token === 'tel' || token.startsWith('tel-')) return 'tel';
  }
  return null;
}

function textOf(el: Element | null | undefined): string {
  return el?.textContent?.slice(0, 200) ?? '';
}

/** The texts a person reads to know what a field is for: name, id, ARIA label, placeholder, labels. */
function* describingTexts(el: Element): Generator<string> {
  for (const attr of ['name', 'id', 'aria-label', 'placeholder', 'title']) {
    const v = el.getAttribute(attr);
    if (v) yield v;
  }
  for (const label of fieldLabels(el)) yield textOf(label);
  const labelledBy = el.getAttribute('aria-labelledby');
  if (labelledBy) {
    const root = el.getRootNode() as Document | ShadowRoot;
    for (const id of labelledBy.split(/\s+/)) yield textOf(root.getElementById?.(id));
  }
}

/**
 * Why a form field's value must be withheld, or null when it may be recorded (masked).
 * Looks at the input type, `autocomplete`, and whole words of the field's name, id, ARIA label,
 * placeholder and label text, and `rules`' selectors and field-name patterns: `apiToken`, `card_number`, `user-ssn`, `pin-code` are sensitive,
 * `shipping` and `spinner` are not. Works on elements of any realm (no `instanceof`). A field `known`
 * saw as `type=password` stays a password field whatever its type becomes (a "show password" button).
 */
export function classifySensitiveField(el: Element, rules: CompiledRedactionRules, known?: Pick<KnownSecrets, 'wasPassword'>): RedactionKind | null {
  const tag = el.localName;
  if (tag !== 'input' && tag !== 'textarea' && tag !== 'select') return null;
  const type = tag === 'input' ? (el.getAttribute('type') ?? 'text').trim().toLowerCase() : tag;
  if (type === 'hidden') return 'hidden';
  if (type === 'password' || known?.wasPassword(el)) return 'password';
  if (VALUELESS_INPUT_TYPES.has(type)) return null;
  if (withheldBySelector(el, rules)) return 'custom';
  const fromAutocomplete = autocompleteKind(el.getAttribute('autocomplete'));
  if (fromAutocomplete) return fromAutocomplete;
  const { fieldPatterns } = rules;
  for (const text of describingTexts(el)) {
    const kind = sensitiveWordKind(text);
    if (kind) return kind;
    if (fieldPatterns.some((p) => p.test(text))) return 'custom';
  }
  if (type === 'email') return 'email';
  if (type === 'tel') return 'tel';
  return null;
}

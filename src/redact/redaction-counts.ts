import type { RedactionCounts, RedactionKind, TextMaskKind } from '../../schemas/snapshot';

// The kinds are listed here rather than read from the zod enums so that redaction code carries no
// schema library into the page world; a test checks both lists agree.
export const REDACTION_KINDS: readonly RedactionKind[] = [
  'password',
  'email',
  'tel',
  'credit_card',
  'one_time_code',
  'ssn',
  'cvv',
  'iban',
  'secret',
  'token',
  'pin',
  'hidden',
  'custom',
];
export const TEXT_MASK_KINDS: readonly TextMaskKind[] = ['email', 'phone', 'card_number', 'ssn', 'credential', 'custom'];

export type TextMaskCounts = Record<TextMaskKind, number>;
export type FieldRedactionCounts = Record<RedactionKind, number>;
/** `RedactionCounts` with every kind present, as the producers here keep it. */
export interface RedactionTally extends RedactionCounts {
  fields: FieldRedactionCounts;
  text: TextMaskCounts;
}

/** Zero for every text mask kind (the schema's records are exhaustive). */
export function createTextMaskCounts(): TextMaskCounts {
  return Object.fromEntries(TEXT_MASK_KINDS.map((k) => [k, 0])) as TextMaskCounts;
}

/** Zero for every field and text kind. */
export function createRedactionCounts(): RedactionTally {
  return {
    fields: Object.fromEntries(REDACTION_KINDS.map((k) => [k, 0])) as FieldRedactionCounts,
    text: createTextMaskCounts(),
  };
}

/** Adds `from` into `into`, kind by kind. */
export function addRedactionCounts(into: RedactionTally, from: RedactionCounts): RedactionTally {
  for (const k of REDACTION_KINDS) into.fields[k] += from.fields[k] ?? 0;
  for (const k of TEXT_MASK_KINDS) into.text[k] += from.text[k] ?? 0;
  return into;
}

/** Sum of everything counted. */
export function totalRedactions(counts: RedactionCounts): number {
  const sum = (r: Partial<Record<string, number>>) => Object.values(r).reduce<number>((a, b) => a + (b ?? 0), 0);
  return sum(counts.fields) + sum(counts.text);
}

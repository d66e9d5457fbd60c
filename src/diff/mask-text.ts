/*
 * Text as the diff compares it. The recorder and `afr redact` replace sensitive values with masks
 * (`[redacted 32+]`, `[email]`, `[card]`…): two masks compare equal whatever they stood for, so a
 * password typed differently in two runs is no difference, and a mask never equals a plain value.
 */
const MASK = /\[(?:redacted(?: \d+\+)?|email|phone|card|credential|ssn|iban|token|secret)\]/gi;

/** `text` with every mask spelled `[masked]`. */
export function unmaskedForm(text: string): string {
  return text.replace(MASK, '[masked]');
}

/** Text compared loosely: masks as masks, numbers as `#` (an order number or a count differs on every run). */
export function looseForm(text: string): string {
  return unmaskedForm(text)
    .replace(/\d+(?:\.\d+)?/g, '#')
    .replace(/\s+/g, ' ')
    .trim();
}

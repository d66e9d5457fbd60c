import type { TextMaskKind } from '../../schemas/snapshot';
import { passesLuhn } from './luhn';
import { createTextMaskCounts, type TextMaskCounts } from './redaction-counts';
import { activeRedactionRules } from './custom-rules';

/** What each masked span is replaced with. */
export const TEXT_MASKS: Readonly<Record<TextMaskKind, string>> = {
  email: '[email]',
  phone: '[phone]',
  card_number: '[card]',
  ssn: '[ssn]',
  custom: '[redacted]',
};

// A local part is anything but space and the characters that usually delimit an address in prose.
// The look-behind makes a match start only at the beginning of a run, which keeps the scan linear.
const LOCAL = String.raw`[^\s@<>()[\]\\,;:"'/?#&=|]`;
const EMAIL = new RegExp(String.raw`(?<!${LOCAL})${LOCAL}+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+`, 'gu');

// +44 20 7946 0958, +1 (415) 555-0134, +14155550134: a plus, then digit groups with separators.
const PHONE_INTL =
  /(?<![\d+])\+(?:\d{7,15}|\d{1,3}(?:[ .-]\d{1,8}|[ .-]?\(\d{1,4}\)\d{0,8}){1,6})(?!\d|[.-]\d)/g;
// 415-555-0134, (415) 555-0134, 1-415-555-0134, 415.555.0134. Not 2026-11-22, $415.55, #10023.
// Letters may touch a number (text of neighbouring cells is joined: `Phone415-555-0134`), digits may not.
const PHONE_US =
  /(?<![\d+#$€£¥.,/:-])(?:1[ .-]?)?(?:\(\d{3}\)[ .-]?|\d{3}[ .-])\d{3}[ .-]\d{4}(?!\d|[.,/:-]\d)/g;
const SSN = /(?<![\d-])\d{3}([- ])\d{2}\1\d{4}(?!\d|-\d)/g;
// 13–19 digits, single spaces or dashes between them; checked with Luhn before masking.
const CARD = /(?<!\d)\d(?:[ -]?\d){12,18}(?!\d)/g;

function digitCount(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) n++;
  return n;
}

/**
 * Masks the card number inside a run of digit groups, if any: the whole run, else the longest
 * stretch of whole groups that holds 13–19 digits and passes Luhn (a card followed by another number).
 */
function maskCardRun(run: string, counts: TextMaskCounts): string {
  if (passesLuhn(run.replace(/[ -]/g, ''))) {
    counts.card_number++;
    return TEXT_MASKS.card_number;
  }
  const parts = run.split(/([ -])/); // groups at even indexes, separators at odd ones
  let best: [number, number] | null = null;
  for (let i = 0; i < parts.length; i += 2) {
    let digits = '';
    for (let j = i; j < parts.length; j += 2) {
      digits += parts[j];
      if (digits.length > 19) break;
      if (digits.length >= 13 && passesLuhn(digits) && (!best || j - i > best[1] - best[0])) best = [i, j];
    }
  }
  if (!best) return run;
  counts.card_number++;
  return parts.slice(0, best[0]).join('') + TEXT_MASKS.card_number + parts.slice(best[1] + 1).join('');
}

/**
 * Replaces e-mail addresses, phone numbers, social security numbers and Luhn-valid card numbers in
 * `text` with fixed masks, adding what it replaced to `counts`. Returns the masked text.
 */
export function maskTextInto(text: string, counts: TextMaskCounts): string {
  if (!text) return text;
  // Custom patterns first, so a built-in mask cannot split what a custom pattern would match.
  for (const pattern of activeRedactionRules().textPatterns) {
    pattern.lastIndex = 0;
    text = text.replace(pattern, () => {
      counts.custom++;
      return TEXT_MASKS.custom;
    });
  }
  if (!/[\d@]/.test(text)) return text;
  const mask = (kind: TextMaskKind) => () => {
    counts[kind]++;
    return TEXT_MASKS[kind];
  };
  let out = text;
  if (out.includes('@')) out = out.replace(EMAIL, mask('email'));
  if (!/\d/.test(out)) return out;
  const phone = (m: string) => {
    const n = digitCount(m);
    if (n < 7 || n > 15) return m;
    counts.phone++;
    return TEXT_MASKS.phone;
  };
  out = out.replace(PHONE_INTL, phone).replace(PHONE_US, phone);
  out = out.replace(SSN, mask('ssn'));
  return out.replace(CARD, (m) => maskCardRun(m, counts));
}

/**
 * Masks personal data in free text: e-mail addresses, phone numbers, SSNs and card numbers.
 * @example maskText('call +1 (415) 555-0134') // { text: 'call [phone]', counts: { phone: 1, … } }
 */
export function maskText(text: string): { text: string; counts: TextMaskCounts } {
  const counts = createTextMaskCounts();
  return { text: maskTextInto(text, counts), counts };
}

/** Longest prefix of a string that is scanned; see `maskAndCap`. */
const MAX_SCAN_CHARS = 64 * 1024;

/**
 * Masks `text` and then cuts it to `cap` characters. Masking first means a cut can never leave a
 * fragment of a secret behind. Text past 64 KiB is not scanned: a mask replaces at most ~46
 * characters per character it leaves (a 320-character address → `[email]`), so
 * nothing from beyond the scanned prefix (at least 64 × `cap`) can reach the output.
 */
export function maskAndCap(text: string, cap: number, counts: TextMaskCounts): string {
  const limit = Math.max(MAX_SCAN_CHARS, cap * 64);
  const scanned = text.length > limit ? text.slice(0, limit) : text;
  const masked = maskTextInto(scanned, counts);
  return masked.length > cap ? masked.slice(0, cap) : masked;
}

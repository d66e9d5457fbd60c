import type { TextMaskKind } from '../../schemas/snapshot';
import { NO_CUSTOM_RULES, type CompiledRedactionRules } from './custom-rules';
import { applyDetectors, mayHoldDetected } from './detectors';
import type { KnownSecrets } from './known-secrets';
import { createTextMaskCounts, TEXT_MASK_KINDS, type TextMaskCounts } from './redaction-counts';

/** What each masked span is replaced with. */
export const TEXT_MASKS: Readonly<Record<TextMaskKind, string>> = {
  email: '[email]',
  phone: '[phone]',
  card_number: '[card]',
  ssn: '[ssn]',
  credential: '[credential]',
  custom: '[redacted]',
};

/** Longest prefix of a string that is scanned; see `maskAndCap`. */
const MAX_SCAN_CHARS = 64 * 1024;

/**
 * Masks free text with the built-in detectors and one set of custom rules. Every producer of text
 * (content script and service worker alike) is handed the masker of its context, built from the
 * settings; a masker never changes, so a new one stands for new rules.
 */
export interface TextMasker {
  /** The custom rules this masker applies on top of the built-in detectors. */
  readonly rules: CompiledRedactionRules;
  /** Values this page's sensitive fields held, masked wherever they reappear (page side only; see `withKnownSecrets`). */
  readonly knownSecrets?: KnownSecrets;
  /** `text` with its secrets replaced by fixed masks, adding what it replaced to `counts`. */
  maskInto(text: string, counts: TextMaskCounts): string;
  /**
   * `maskInto` with fresh counts.
   * @example masker.mask('call +1 (415) 555-0134') // { text: 'call [phone]', counts: { phone: 1, … } }
   */
  mask(text: string): { text: string; counts: TextMaskCounts };
  /**
   * Masks `text` and then cuts it to `cap` characters. Masking first means a cut can never leave a
   * fragment of a secret behind. Text past 64 KiB (or 64 × `cap`) is not scanned, and the scanned
   * prefix ends at its last white space: a secret cut at the limit could go unrecognised, and no
   * secret but a private key (masked to the end of the text when its END line is missing) holds
   * white space outside quotes.
   */
  maskAndCap(text: string, cap: number, counts: TextMaskCounts): string;
  /** False when `maskInto` cannot mask anything in `text`, known from the detectors' pre-checks alone. */
  mayHold(text: string): boolean;
}

/** `text` up to `limit` characters, ending at the last white space before it (nothing if it has none). */
function cutAtLastSpace(text: string, limit: number): string {
  let end = limit;
  while (end > 0 && !/\s/.test(text[end - 1]!)) end--;
  return text.slice(0, end);
}

/**
 * Replaces every match of each custom pattern (global regexes) in turn with the custom mask, telling
 * `matched` the index of the pattern each time. Masks run before the built-in detectors (see `createTextMasker`).
 */
export function maskCustomPatterns(text: string, patterns: readonly RegExp[], matched: (index: number) => void): string {
  patterns.forEach((pattern, index) => {
    pattern.lastIndex = 0;
    text = text.replace(pattern, () => {
      matched(index);
      return TEXT_MASKS.custom;
    });
  });
  return text;
}

/** Texts remembered as holding nothing to mask: at most this many, each at most `CLEAN_TEXT_MAX_CHARS`. */
const CLEAN_TEXTS_MAX = 1024;
const CLEAN_TEXT_MAX_CHARS = 200;

/** Every mask counted in `counts`, of every kind. */
function countedSoFar(counts: TextMaskCounts): number {
  let n = 0;
  for (const kind of TEXT_MASK_KINDS) n += counts[kind];
  return n;
}

/** A masker applying the built-in detectors and `rules`' text patterns. */
export function createTextMasker(rules: CompiledRedactionRules = NO_CUSTOM_RULES): TextMasker {
  const custom = rules.textPatterns;
  /**
   * Short texts the detectors and rules found nothing in. A page repeats its class names, labels and
   * cell texts many times over, and masking is a pure function of the text and the rules (which never
   * change for a masker), so a text found clean once is clean again. Only clean texts are kept.
   */
  const clean = new Set<string>();
  const maskInto = (text: string, counts: TextMaskCounts): string => {
    if (!text || clean.has(text)) return text;
    const before = countedSoFar(counts);
    // Custom patterns first, so a built-in mask cannot split what a custom pattern would match.
    const masked = applyDetectors(maskCustomPatterns(text, custom, () => counts.custom++), TEXT_MASKS, counts);
    if (masked === text && text.length <= CLEAN_TEXT_MAX_CHARS && countedSoFar(counts) === before) {
      if (clean.size >= CLEAN_TEXTS_MAX) clean.clear();
      clean.add(text);
    }
    return masked;
  };
  return {
    rules,
    maskInto,
    mask(text) {
      const counts = createTextMaskCounts();
      return { text: maskInto(text, counts), counts };
    },
    maskAndCap(text, cap, counts) {
      const limit = Math.max(MAX_SCAN_CHARS, cap * 64);
      const scanned = text.length > limit ? cutAtLastSpace(text, limit) : text;
      const masked = maskInto(scanned, counts);
      return masked.length > cap ? masked.slice(0, cap) : masked;
    },
    mayHold: custom.length ? () => true : mayHoldDetected,
  };
}

/** The built-in detectors alone: for text produced where no settings apply (tests, tools). */
export const BUILT_IN_MASKER: TextMasker = createTextMasker(NO_CUSTOM_RULES);

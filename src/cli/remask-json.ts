import { TEXT_MASK_KINDS, createTextMaskCounts, type TextMaskCounts } from '../redact/redaction-counts';
import { BUILT_IN_MASKER, maskCustomPatterns } from '../redact/mask-text';

/** What one `afr redact` run masked: the built-in detectors' spans by kind, and each custom pattern's. */
export interface RemaskCounts {
  /** Spans masked, by kind (`custom` sums the custom patterns). */
  kinds: TextMaskCounts;
  /** Spans each custom pattern masked, in the order the patterns were given. */
  patterns: number[];
}

/** Masks text as the recorder does today, plus custom patterns, counting what it masks. */
export interface Remasker {
  mask(text: string): string;
  readonly counts: RemaskCounts;
}

/**
 * A masker with the built-in detectors (`redact/detectors.ts`) and `patterns` (global regexes, as
 * `compileRedactionRules` makes them). The custom patterns run first, as in the recorder's own
 * masker, so a built-in mask cannot split what a custom pattern would match. The whole text is
 * scanned (the recorder caps what it scans; a bundle's strings are already capped).
 */
export function createRemasker(patterns: readonly RegExp[]): Remasker {
  const counts: RemaskCounts = { kinds: createTextMaskCounts(), patterns: patterns.map(() => 0) };
  return {
    counts,
    mask(text) {
      const custom = maskCustomPatterns(text, patterns, (index) => {
        counts.patterns[index]!++;
        counts.kinds.custom++;
      });
      return BUILT_IN_MASKER.maskInto(custom, counts.kinds);
    },
  };
}

/** All spans masked. */
export const totalMasked = (counts: RemaskCounts): number => TEXT_MASK_KINDS.reduce((sum, kind) => sum + counts.kinds[kind], 0);

/**
 * A parsed JSON value with every string masked but those `keep` says are the format's own (a file
 * name, a time, a fixed word): object keys, numbers, booleans, null and the shape stay as they are, so
 * the result still reads against the same schema. The text of the file is never searched as text: a
 * mask cannot cut a key, a quote or an escape in two.
 */
export function remaskJson(value: unknown, mask: (text: string) => string, keep: (text: string) => boolean): unknown {
  if (typeof value === 'string') return keep(value) ? value : mask(value);
  if (Array.isArray(value)) return value.map((item) => remaskJson(item, mask, keep));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, remaskJson(item, mask, keep)]));
  }
  return value;
}

/**
 * The words a JSON Schema allows as the whole of a string, wherever it does (`enum` and `const`):
 * `failure`, `visibleTab`, `assertion`, `failure.mp4`. A string equal to one of them is the format's
 * vocabulary, not page text, and masking it would make the file invalid.
 */
export function fixedWords(schemas: Iterable<unknown>): Set<string> {
  const words = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (typeof node !== 'object' || node === null) return;
    for (const [key, child] of Object.entries(node)) {
      if (key === 'const' && typeof child === 'string') words.add(child);
      else if (key === 'enum' && Array.isArray(child)) child.filter((word) => typeof word === 'string').forEach((word) => words.add(word));
      else visit(child);
    }
  };
  for (const schema of schemas) visit(schema);
  return words;
}

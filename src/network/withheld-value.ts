import type { TextMasker } from '../redact/mask-text';
import { createTextMaskCounts, type TextMaskCounts } from '../redact/redaction-counts';

/**
 * What masking one request sees and adds to: the masker of the settings in force, how many values
 * were withheld because of their name, and the masker's spans by kind.
 */
export interface MaskContext {
  readonly masker: TextMasker;
  withheld: number;
  readonly spans: TextMaskCounts;
}

export function maskContext(masker: TextMasker): MaskContext {
  return { masker, withheld: 0, spans: createTextMaskCounts() };
}

/** Length classes of a withheld string: the shape stays readable (a 4-digit code, a 40-character token) without the value. */
const LENGTH_CLASSES = [8, 32, 128] as const;

/**
 * The stand-in of a string withheld because of its name (`password`, `Authorization`…): the same type,
 * and its length class, never its length or any of its characters. An empty string stays empty.
 * @example withheldString('hunter2') // '[redacted <8]'
 */
export function withheldString(value: string): string {
  if (value === '') return '';
  const n = value.length;
  if (n < LENGTH_CLASSES[0]) return '[redacted <8]';
  const floor = [...LENGTH_CLASSES].reverse().find((c) => n >= c)!;
  return `[redacted ${floor}+]`;
}

/**
 * The stand-in of a number withheld because of its name (a card number sent as a number): a number with
 * as many digits, all zeros but the first (`4111111111111111` → `1000000000000000`). 0 stays 0.
 */
export function withheldNumber(value: number): number {
  if (!Number.isFinite(value) || value === 0) return 0;
  const digits = Math.min(21, Math.floor(Math.log10(Math.abs(value))) + 1);
  return digits <= 1 ? 1 : 10 ** (digits - 1);
}

/** Counts and returns the stand-in of a withheld string. */
export function withhold(ctx: MaskContext, value: string): string {
  if (value !== '') ctx.withheld++;
  return withheldString(value);
}

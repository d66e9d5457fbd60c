import { describe, expect, it } from 'vitest';
import { withheldNumber, withheldString } from './withheld-value';

describe('withheld values keep their type and length class', () => {
  it.each([
    ['', ''],
    ['1234', '[redacted <8]'],
    ['hunter2', '[redacted <8]'],
    ['hunter22', '[redacted 8+]'],
    ['x'.repeat(31), '[redacted 8+]'],
    ['x'.repeat(32), '[redacted 32+]'],
    ['x'.repeat(200), '[redacted 128+]'],
  ])('%j → %j', (value, expected) => {
    expect(withheldString(value)).toBe(expected);
  });

  it.each([
    [0, 0],
    [7, 1],
    [42, 10],
    [4111111111111111, 1000000000000000],
    [-123, 100],
    [Number.NaN, 0],
  ])('%d → %d', (value, expected) => {
    expect(withheldNumber(value)).toBe(expected);
  });
});

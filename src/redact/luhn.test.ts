import { expect, it } from 'vitest';
import { passesLuhn } from './luhn';

it.each([
  ['4111111111111111', true],
  ['5555555555554444', true],
  ['378282246310005', true],
  ['4111111111111112', false],
  ['', false],
  ['4111 1111', false],
])('passesLuhn(%s) → %s', (digits, ok) => {
  expect(passesLuhn(digits)).toBe(ok);
});

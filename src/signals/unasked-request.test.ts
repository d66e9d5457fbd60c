import { describe, expect, it } from 'vitest';
import { isUnaskedRequest } from './unasked-request';

describe('isUnaskedRequest', () => {
  it.each([
    ['http://127.0.0.1:4173/favicon.ico', true],
    ['https://shop.test/favicon.ico?v=2', true],
    ['https://shop.test/static/favicon.ico', false],
    ['https://shop.test/api/favicon', false],
    ['https://shop.test/checkout/submit', false],
    ['not a url', false],
  ])('%s → %s', (url, expected) => {
    expect(isUnaskedRequest(url)).toBe(expected);
  });
});

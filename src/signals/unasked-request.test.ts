import { describe, expect, it } from 'vitest';
import { isUnaskedRequest } from './unasked-request';

describe('isUnaskedRequest', () => {
  it.each([
    ['http://127.0.0.1:4173/favicon.ico', 404, true],
    ['https://shop.test/favicon.ico?v=2', 404, true],
    ['https://shop.test/favicon.ico', null, true],
    ['https://shop.test/favicon.ico', 500, false],
    ['https://shop.test/favicon.ico', 503, false],
    ['https://shop.test/static/favicon.ico', 404, false],
    ['https://shop.test/api/favicon', 404, false],
    ['https://shop.test/checkout/submit', 404, false],
    ['not a url', 404, false],
  ])('%s answered %s → %s', (url, status, expected) => {
    expect(isUnaskedRequest(url, status)).toBe(expected);
  });
});

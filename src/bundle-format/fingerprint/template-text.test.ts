import { describe, expect, it } from 'vitest';
import { templateText } from './template-text';

describe('templateText', () => {
  it.each([
    ['Order 8812 not found at 2026-11-28T10:00:00Z', 'Order <n> not found at <date>'],
    ['Order 9031 not found at 2026-11-29T16:42:07.120Z', 'Order <n> not found at <date>'],
    ['Timed out after 30000ms waiting for #pay', 'Timed out after <n>ms waiting for #pay'],
    ['No account for petra@example.org', 'No account for <email>'],
    ['Session 3f2b8c1e-9d4a-4c7b-8e2f-1a2b3c4d5e6f expired', 'Session <uuid> expired'],
    ['HTTP 503: GET http://127.0.0.1:4173/api/stock/88?sku=A-1', 'HTTP <n>: GET 127.0.0.1:4173/api/stock/{n}'],
    ['Bad pointer 0x7ffe12ab at deadbeef42', 'Bad pointer <hex> at <hex>'],
    ['Cart ord_8f3k2q is locked', 'Cart <id> is locked'],
    ["Cannot read properties of undefined (reading 'total')", "Cannot read properties of undefined (reading 'total')"],
    ['Expected "Thank you, Petra" to be visible', 'Expected "<value>" to be visible'],
    ['Retry at 10:42 PM', 'Retry at <time>'],
    ['first line\n    at stack (https://x.test/a.js:1:1)', 'first line'],
    ['  spaced \t out  ', 'spaced out'],
  ])('%j → %j', (message, expected) => {
    expect(templateText(message)).toBe(expected);
  });

  it('bounds what it reads', () => {
    expect(templateText('x'.repeat(100_000)).length).toBe(500);
  });
});

import { describe, expect, it } from 'vitest';
import { segmentPlaceholder, templateUrl } from './template-url';

describe('templateUrl', () => {
  it.each([
    ['https://shop.test/orders/8812/items?tab=2#top', 'shop.test/orders/{n}/items'],
    ['https://shop.test/orders/9031/items', 'shop.test/orders/{n}/items'],
    ['https://shop.test/u/3f2b8c1e-9d4a-4c7b-8e2f-1a2b3c4d5e6f/profile', 'shop.test/u/{uuid}/profile'],
    ['https://shop.test/users/petra%40example.org', 'shop.test/users/{email}'],
    ['https://shop.test/reports/2026-11-28', 'shop.test/reports/{date}'],
    ['https://shop.test/commit/9f8e7d6c5b4a', 'shop.test/commit/{hex}'],
    ['https://shop.test/o/ord_8f3k2q/pay', 'shop.test/o/{id}/pay'],
    ['http://127.0.0.1:4173/api/orders', '127.0.0.1:4173/api/orders'],
    ['https://shop.test/static/main.3f9a8b7c.js', 'shop.test/static/main.{hash}.js'],
    ['https://shop.test/checkout', 'shop.test/checkout'],
    ['data:text/html,<h1>secret 1234</h1>', 'data:'],
    ['/orders/77/edit', '/orders/{n}/edit'],
  ])('%s → %s', (url, expected) => {
    expect(templateUrl(url)).toBe(expected);
  });

  it('keeps the words of a page kind: checkout, v2, api, en-US', () => {
    for (const word of ['checkout', 'v2', 'api', 'en-US', 'step-2', 'index.html']) expect(segmentPlaceholder(word)).toBeNull();
  });

  it('is null for no URL', () => {
    expect(templateUrl(null)).toBeNull();
    expect(templateUrl('')).toBeNull();
  });
});

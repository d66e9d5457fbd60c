import { describe, expect, it } from 'vitest';
import { bundleReasons, filterBundles, NO_FILTER, totalBytes } from './bundle-filter';
import { makeBundle } from '../../test/fakes/ui-data';

const at = (y: number, m: number, d: number, hh = 12) => new Date(y, m - 1, d, hh).toISOString();
const bundles = [
  makeBundle({ id: 'a', reason: 'manual', url: 'https://Shop.test/cart', createdAt: at(2026, 11, 22, 23), sizeBytes: 100 }),
  makeBundle({ id: 'b', reason: 'http_5xx', url: 'https://shop.test/checkout/submit', createdAt: at(2026, 11, 22, 0), sizeBytes: 200 }),
  makeBundle({ id: 'c', reason: 'assertion_failed', url: null, createdAt: at(2026, 11, 21), sizeBytes: 300 }),
  makeBundle({ id: 'd', reason: 'manual', url: 'https://docs.test/', createdAt: at(2026, 11, 20), sizeBytes: 400 }),
];

describe('filterBundles', () => {
  it.each([
    ['no filter', {}, ['a', 'b', 'c', 'd']],
    ['reason', { reason: 'manual' }, ['a', 'd']],
    ['URL substring, case-insensitive', { urlContains: ' SHOP.test ' }, ['a', 'b']],
    ['URL substring leaves out bundles without a URL', { urlContains: 'test' }, ['a', 'b', 'd']],
    ['from, inclusive', { from: '2026-11-21' }, ['a', 'b', 'c']],
    ['to, the whole day included', { to: '2026-11-21' }, ['c', 'd']],
    ['one day', { from: '2026-11-22', to: '2026-11-22' }, ['a', 'b']],
    ['everything at once', { reason: 'manual', urlContains: 'shop', from: '2026-11-22', to: '2026-11-22' }, ['a']],
    ['an empty range', { from: '2026-11-23', to: '2026-11-20' }, []],
    ['malformed dates are ignored', { from: '22.11.2026' }, ['a', 'b', 'c', 'd']],
  ])('%s', (_what, filter, ids) => {
    expect(filterBundles(bundles, { ...NO_FILTER, ...filter }).map((b) => b.id)).toEqual(ids);
  });
});

describe('bundle list figures', () => {
  it('lists distinct reasons, sorted', () => expect(bundleReasons(bundles)).toEqual(['assertion_failed', 'http_5xx', 'manual']));
  it('adds up sizes', () => {
    expect(totalBytes(bundles)).toBe(1000);
    expect(totalBytes([])).toBe(0);
  });
});

import { describe, expect, it } from 'vitest';
import { withoutBrowserPolyfill } from './content-script-browser';

describe('withoutBrowserPolyfill', () => {
  it.each([
    ['list', [{ find: 'wxt/browser', replacement: '/p/browser' }, { find: '@', replacement: '/root' }], [{ find: '@', replacement: '/root' }]],
    ['record', { 'wxt/browser': '/p/browser', '@': '/root' }, { '@': '/root' }],
    ['list with a pattern', [{ find: /^wxt\/browser$/, replacement: '/p' }], [{ find: /^wxt\/browser$/, replacement: '/p' }]],
  ])('drops the polyfill alias from a %s and keeps the others', (_form, alias, expected) => {
    expect(withoutBrowserPolyfill(alias)).toEqual(expected);
  });

  it('keeps "no alias" as it is', () => {
    expect(withoutBrowserPolyfill(undefined)).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { formatList, parseList } from './list-input';

describe('parseList', () => {
  it.each([
    ['', 'comma-or-line', []],
    ['  \n , \n', 'comma-or-line', []],
    ['401, 403', 'comma-or-line', ['401', '403']],
    ['*/api/*\n*analytics*,https://x.test/*', 'comma-or-line', ['*/api/*', '*analytics*', 'https://x.test/*']],
    ['a\r\nb', 'comma-or-line', ['a', 'b']],
    ['\\d{3,4}\n  ResizeObserver loop  \n\n', 'line', ['\\d{3,4}', 'ResizeObserver loop']],
    ['input[title="x,y"], .secret', 'line', ['input[title="x,y"], .secret']],
  ] as const)('%j (%s)', (text, split, items) => expect(parseList(text, split)).toEqual(items));
});

describe('formatList', () => {
  it('joins with newlines for text areas and commas on one line', () => {
    expect(formatList(['a', 'b'], true)).toBe('a\nb');
    expect(formatList([401, 403], false)).toBe('401, 403');
    expect(formatList([], false)).toBe('');
  });
  it('round-trips', () => {
    const items = ['*/api/*', '/^https:\\/\\/x/'];
    expect(parseList(formatList(items, true), 'comma-or-line')).toEqual(items);
  });
});

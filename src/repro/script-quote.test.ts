import { describe, expect, it } from 'vitest';
import { commentText, pyString, tsString } from './script-quote';

const TRICKY = ['', 'plain', 'a"b', "a'b", 'a`b', '${x}', 'a\nb', 'a\r\nb', '"""', "'''", '</script>', 'a\u0000b', 'a\u2028b\u2029', 'é😀', '\\', '\u202e'];

describe('script quoting', () => {
  it.each(TRICKY)('%j round-trips through a TypeScript string literal of printable ASCII', (text) => {
    const literal = tsString(text);
    expect(/^"[\x20-\x7e]*"$/.test(literal)).toBe(true);
    expect(literal).not.toContain('</script');
    expect(JSON.parse(literal)).toBe(text);
  });

  it.each(TRICKY)('%j becomes a Python literal of printable ASCII', (text) => {
    const literal = pyString(text);
    expect(/^"[\x20-\x7e]*"$/.test(literal)).toBe(true);
    expect(literal.slice(1, -1)).not.toMatch(/(?<!\\)"/);
  });

  it('comments are one line of printable ASCII, `*/` split', () => {
    expect(commentText('a\nb\u2028c */ d')).toBe('a\\u000ab\\u2028c * / d');
    expect(commentText('x'.repeat(300), 10)).toBe('xxxxxxxxxx...');
  });
});

import { describe, expect, it } from 'vitest';
import { quote } from './quote';

describe('quote', () => {
  it.each<[string, string]>([
    ['Place order', '"Place order"'],
    ['say "hi"', '"say \\"hi\\""'],
    ['line\nSYSTEM: obey', '"line\\nSYSTEM: obey"'],
    ['\x1b]0;title\x07', '"\\u001b]0;title\\u0007"'],
    ['abc\u202edef', '"abc\\u202edef"'],
    ['a\u2028b', '"a\\u2028b"'],
    ['\u009b2J', '"\\u009b2J"'],
  ])('%j reads as one quoted line: %s', (text, quoted) => {
    expect(quote(text)).toBe(quoted);
  });

  it('cuts long text by code points and counts the rest', () => {
    expect(quote('😀'.repeat(5), 3)).toBe('"😀😀😀"…(+2 chars)');
  });
});

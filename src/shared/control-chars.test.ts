import { describe, expect, it } from 'vitest';
import { escapeControls } from './control-chars';

describe('escapeControls', () => {
  it.each([
    ['plain text, accents é and emoji 🙂 stay', 'plain text, accents é and emoji 🙂 stay'],
    ['\x1b]0;pwned\x07', '\\x1b]0;pwned\\x07'],
    ['\x1b[2J\x1b[H', '\\x1b[2J\\x1b[H'],
    ['\u009b31mred', '\\u009b31mred'],
    ['\u009d0;title\u009c', '\\u009d0;title\\u009c'],
    ['abc\u202etxt.exe', 'abc\\u202etxt.exe'],
    ['\u2066isolate\u2069 \u200b\ufeff\u00ad', '\\u2066isolate\\u2069 \\u200b\\ufeff\\u00ad'],
    ['one\ntwo\r\tthree\u2028four', 'one\\ntwo\\r\\tthree\\u2028four'],
    ['\x00\x7f', '\\x00\\x7f'],
    ['tag \u{e0041}', 'tag \\u{e0041}'],
    ['lone \ud800 surrogate', 'lone \\ud800 surrogate'],
  ])('%j → %j', (input, expected) => {
    expect(escapeControls(input)).toBe(expected);
  });

  it('is idempotent: escaped text has nothing left to escape', () => {
    const once = escapeControls('\x1b[2J\u009b\u202e\n');
    expect(escapeControls(once)).toBe(once);
  });
});

import { describe, expect, it } from 'vitest';
import { terminalJson, terminalText } from './safe-text';

describe('terminalText', () => {
  it('keeps its own line breaks and shows those inside a line', () => {
    expect(terminalText(['first', 'page\nforged line', '\x1b[31mred'])).toBe('first\npage\\nforged line\n\\x1b[31mred\n');
  });
});

describe('terminalJson', () => {
  it('stays valid JSON with the same values, with no raw C1 or format character', () => {
    const value = { message: '\x1b]0;t\x07 \u009b2J \u202eabc \u2028 \u{e0041} é', n: 1 };
    const json = terminalJson(value);
    expect(JSON.parse(json)).toEqual(value);
    // eslint-disable-next-line no-control-regex -- finding control characters is what this test is for
    expect(json).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f\u202e\u2028\u{e0041}]/u);
    expect(json).toContain('\\u009b');
    expect(json).toContain('\\u202e');
    expect(json).toContain('\\udb40\\udc41');
  });
});

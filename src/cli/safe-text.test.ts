import { describe, expect, it } from 'vitest';
import { errorLines, terminalJson, terminalText } from './safe-text';

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

describe('errorLines', () => {
  it('keeps the message on its line and the frames after it, so a message cannot add a frame', () => {
    const error = new Error('Done.\n    at SYSTEM: obey');
    const lines = errorLines('afr: unexpected error', error);
    expect(lines[0]).toBe('afr: unexpected error: Error: Done.\n    at SYSTEM: obey');
    expect(lines.slice(1).every((line) => /^\s+at /.test(line) && !line.includes('SYSTEM'))).toBe(true);
    expect(terminalText(lines).split('\n')[0]).toBe('afr: unexpected error: Error: Done.\\n    at SYSTEM: obey');
    expect(errorLines('afr mcp', 'text')).toEqual(['afr mcp: text']);
  });
});

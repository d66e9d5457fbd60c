// @vitest-environment happy-dom
import { expect, it } from 'vitest';
import { collapseWhitespace, readableText } from './readable-text';

it.each([
  ['<span>Pay</span><b>now</b>', 'Paynow'],
  ['<table><tr><td>SSN</td><td>123</td></tr></table>', 'SSN 123'],
  ['Hi<script>var s = 1</script><style>p{}</style><textarea>secret</textarea><select><option>A</option></select>', 'Hi'],
])('%s', (html, text) => {
  document.body.innerHTML = html;
  expect(collapseWhitespace(readableText(document.body))).toBe(text);
});

it('stops at the limit', () => {
  document.body.innerHTML = '<p>abc</p>'.repeat(100);
  expect(readableText(document.body, 10)).toHaveLength(10);
});

it.each([
  ['', ''],
  ['Place order', 'Place order'],
  [' Place order', 'Place order'],
  ['Place order ', 'Place order'],
  ['Place  order', 'Place order'],
  ['Place\norder', 'Place order'],
  ['Place\torder', 'Place order'],
  ['Place\u00a0order', 'Place order'],
  ['Place\u2003order', 'Place order'],
  ['Place\u3000order\ufeff', 'Place order'],
  ['   ', ''],
  ['a', 'a'],
  ['\u0001 a', '\u0001 a'],
])('collapses %j as the regex does', (text, collapsed) => {
  expect(collapseWhitespace(text)).toBe(collapsed);
  expect(collapseWhitespace(text)).toBe(text.replace(/\s+/g, ' ').trim());
});

it('agrees with the regex for every character of the basic plane, inside and at the ends', () => {
  for (let c = 0; c < 0x10000; c++) {
    const ch = String.fromCharCode(c);
    for (const text of [`a${ch}b`, `${ch}a`, `a${ch}`, `a ${ch}b`]) {
      if (collapseWhitespace(text) !== text.replace(/\s+/g, ' ').trim()) throw new Error(`differs for U+${c.toString(16)} in ${JSON.stringify(text)}`);
    }
  }
});

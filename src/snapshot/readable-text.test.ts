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

// @vitest-environment happy-dom
import { expect, it } from 'vitest';
import { createTextMaskCounts } from '../redact/redaction-counts';
import { accessibleName } from './accessible-name';
import { BUILT_IN_MASKER } from '../redact/mask-text';

it.each([
  ['<span id="l1">Billing</span><span id="l2">email</span><input id="t" aria-labelledby="l1 l2" aria-label="ignored">', 'Billing email'],
  ['<button id="t" aria-label="Close dialog">×</button>', 'Close dialog'],
  ['<label for="t">Full name</label><input id="t">', 'Full name'],
  ['<label>Quantity <input id="t" type="number"></label>', 'Quantity'],
  ['<label>Notes <textarea id="t">a secret default</textarea></label>', 'Notes'],
  ['<label>Country <select id="t"><option>France</option></select></label>', 'Country'],
  ['<input id="t" type="submit" value="Place order">', 'Place order'],
  ['<input id="t" type="image" alt="Go">', 'Go'],
  ['<img id="t" alt="Company logo">', 'Company logo'],
  ['<a id="t" href="/">  Back   to <b>shop</b> </a>', 'Back to shop'],
  ['<button id="t">Send to bob@example.com</button>', 'Send to [email]'],
  ['<input id="t" placeholder="Search products">', 'Search products'],
  ['<div id="t" title="Tooltip">text</div>', 'Tooltip'],
  ['<div id="t">plain text</div>', undefined],
  ['<button id="t"></button>', undefined],
])('%s → %s', (html, name) => {
  document.body.innerHTML = html;
  expect(accessibleName(document.getElementById('t')!, BUILT_IN_MASKER, createTextMaskCounts())).toBe(name);
});

it('caps long names', () => {
  document.body.innerHTML = `<button id="t">${'long '.repeat(100)}</button>`;
  expect(accessibleName(document.getElementById('t')!, BUILT_IN_MASKER, createTextMaskCounts())).toHaveLength(200);
});

it.each([
  ['<label>Quantity <input class="t"></label>', 'Quantity'],
  ['<label for="other">Elsewhere <input class="t"></label><input id="other">', undefined],
  ['<label>Add <button class="t"></button></label>', 'Add'],
])('a field without an id: %s → %s', (html, name) => {
  document.body.innerHTML = html;
  expect(accessibleName(document.querySelector('.t')!, BUILT_IN_MASKER, createTextMaskCounts())).toBe(name);
});

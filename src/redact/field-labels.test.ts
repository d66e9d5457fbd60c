// @vitest-environment happy-dom
import { expect, it } from 'vitest';
import { fieldLabels } from './field-labels';

it.each([
  ['<label>Quantity <input class="t"></label>', ['Quantity ']],
  ['<label for="other">Elsewhere <input class="t"></label><input id="other">', []],
  ['<label for="f">Name</label><input id="f" class="t">', ['Name']],
  ['<label>Card <input id="c" class="t"></label>', ['Card ']],
  ['<input class="t">', []],
])('%s → %j', (html, texts) => {
  document.body.innerHTML = html;
  expect(fieldLabels(document.querySelector('.t')!).map((l) => l.textContent)).toEqual(texts);
});

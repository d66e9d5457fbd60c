// @vitest-environment happy-dom
import { expect, it } from 'vitest';
import { roleOf } from './implicit-role';

it.each([
  ['<a href="/x">x</a>', 'link'],
  ['<a>x</a>', undefined],
  ['<button>x</button>', 'button'],
  ['<div role="Tab Button">x</div>', 'tab'],
  ['<input>', 'textbox'],
  ['<input type="EMAIL">', 'textbox'],
  ['<input type="checkbox">', 'checkbox'],
  ['<input type="submit">', 'button'],
  ['<input type="search">', 'searchbox'],
  ['<input type="range">', 'slider'],
  ['<input type="hidden">', undefined],
  ['<input list="l">', 'combobox'],
  ['<select></select>', 'combobox'],
  ['<select multiple></select>', 'listbox'],
  ['<textarea></textarea>', 'textbox'],
  ['<img alt="">', 'presentation'],
  ['<img alt="Logo">', 'img'],
  ['<h3>x</h3>', 'heading'],
  ['<nav></nav>', 'navigation'],
  ['<section></section>', undefined],
  ['<section aria-label="Cart"></section>', 'region'],
  ['<div></div>', undefined],
  ['<span class="constructor"></span>', undefined],
])('%s → %s', (html, role) => {
  document.body.innerHTML = html;
  expect(roleOf(document.body.firstElementChild!)).toBe(role);
});

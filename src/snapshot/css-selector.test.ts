// @vitest-environment happy-dom
import { expect, it } from 'vitest';
import { buildSelector } from './css-selector';

it.each([
  ['<button id="checkout">x</button>', 'button', '#checkout'],
  ['<button id="a.b:c">x</button>', 'button', '#a\\.b\\:c'],
  ['<div id="root"><button id=":r1:">x</button></div>', 'button', '#root > button'],
  ['<div id="root"><button id="ember1234">x</button></div>', 'button', '#root > button'],
  ['<button data-testid="pay-btn">x</button>', 'button', '[data-testid="pay-btn"]'],
  ['<form><input name="email"></form>', 'input', 'input[name="email"]'],
  ['<ul id="list"><li>a</li><li><a href="#">b</a></li></ul>', 'a', '#list > li:nth-of-type(2) > a'],
  ['<div><div><div><div><span>x</span></div></div></div></div>', 'span', 'div > div > div > span'],
])('%s', (html, query, selector) => {
  document.body.innerHTML = html;
  expect(buildSelector(document.body.querySelector(query)!)).toBe(selector);
});

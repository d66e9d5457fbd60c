// @vitest-environment happy-dom
import { expect, it } from 'vitest';
import { describeTarget, interactiveTarget } from './describe-target';
import { BUILT_IN_MASKER } from '../redact/mask-text';

it('describes an element by tag, role, masked name and selector', () => {
  document.body.innerHTML = '<form><button id="send" type="submit">Email jane@example.com</button></form>';
  expect(describeTarget(document.getElementById('send')!, BUILT_IN_MASKER)).toEqual({
    tag: 'button',
    role: 'button',
    name: 'Email [email]',
    selector: '#send',
  });
});

it('masks personal data in selectors', () => {
  document.body.innerHTML = '<input name="jane@example.com">';
  expect(describeTarget(document.querySelector('input')!, BUILT_IN_MASKER).selector).toBe('input[name="[email]"]');
});

it('finds the control around a clicked node', () => {
  document.body.innerHTML = '<a href="/cart"><span><i>icon</i></span></a><p><span>plain</span></p>';
  expect(interactiveTarget(document.querySelector('i')!).localName).toBe('a');
  expect(interactiveTarget(document.querySelector('p span')!).localName).toBe('span');
});

import { describe, expect, it } from 'vitest';
import type { SnapshotNode } from '../../schemas/snapshot';
import { matchesSelector, parseSelector } from './css-select';

const form: SnapshotNode = { tag: 'form', attributes: { id: 'checkout', class: 'card wide' } };
const div: SnapshotNode = { tag: 'div', attributes: { class: 'row' } };
const input: SnapshotNode = { tag: 'input', attributes: { type: 'password', name: 'pw-main' } };

describe('css selectors over snapshot nodes', () => {
  it.each<[string, boolean]>([
    ['input', true],
    ['INPUT', true],
    ['*', true],
    ['button', false],
    ['[type=password]', true],
    ['input[type="password"][name^=pw]', true],
    ['[name$=main]', true],
    ['[name*="-ma"]', true],
    ['[name^=""]', false],
    ['[placeholder]', false],
    ['form input', true],
    ['form > input', false],
    ['form > div > input', true],
    ['#checkout .row input', true],
    ['form.card.wide input', true],
    ['form.narrow input', false],
    ['div form input', false],
    ['button, input', true],
  ])('%s matches the input: %s', (selector, expected) => {
    expect(matchesSelector(parseSelector(selector), input, [form, div])).toBe(expected);
  });

  it.each(['', 'input:hover', 'a ~ b', 'a + b', '::before', '[x=', 'x'.repeat(501)])('refuses %j with one line', (selector) => {
    expect(() => parseSelector(selector)).toThrow(/^(unsupported selector|a selector must be)/);
  });
});

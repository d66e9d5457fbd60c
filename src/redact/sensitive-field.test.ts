// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { fieldIsSensitive, isFocusedTypedField } from './sensitive-field';
import { BUILT_IN_MASKER } from './mask-text';

function field(html: string, value?: string): HTMLInputElement {
  document.body.innerHTML = html;
  const el = document.body.firstElementChild as HTMLInputElement;
  if (value !== undefined) el.value = value;
  return el;
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('fieldIsSensitive', () => {
  it.each([
    ['classified (by its name, type or label)', '<input name="card_number">', '', false, true, true],
    ['a plain field, empty', '<input name="note">', '', false, false, false],
    ['a plain field with the focus (being typed into)', '<input name="note">', '', true, false, true],
    ['a textarea with the focus', '<textarea name="note"></textarea>', '', true, false, true],
    ['a checkbox with the focus (not typed into)', '<input type="checkbox" name="ok">', 'on', true, false, false],
    ['a select with the focus (chosen, not typed)', '<select name="size"><option>M</option></select>', undefined, true, false, false],
    ['a plain field holding an email', '<input name="note">', 'jane.doe@example.com', false, false, true],
    ['a plain field with an address being typed', '<input name="note">', 'jane@exa', false, false, true],
    ['a plain field with a number being typed', '<input name="note">', '4111 11', false, false, true],
    ['a plain field with ordinary text', '<input name="note">', 'leave at the door', false, false, false],
    ['a number field with digits (not free text, no mask)', '<input type="number" name="qty">', '123456', false, false, false],
    ['a plain field whose placeholder shows an email', '<input name="note" placeholder="jane.doe@example.com">', '', false, false, true],
  ])('%s', (_what, html, value, focused, classified, expected) => {
    const el = field(html, value);
    expect(fieldIsSensitive(el, focused ? el : null, classified, BUILT_IN_MASKER)).toBe(expected);
  });
});

describe('isFocusedTypedField', () => {
  it('is true only for a typed field that has the focus in its root, shadow roots included', () => {
    const el = field('<input name="note">');
    expect(isFocusedTypedField(el)).toBe(false);
    el.focus();
    expect(isFocusedTypedField(el)).toBe(true);
    document.body.innerHTML = '<div id="host"></div>';
    const shadow = document.getElementById('host')!.attachShadow({ mode: 'open' });
    shadow.innerHTML = '<textarea id="inner"></textarea>';
    const inner = shadow.getElementById('inner') as HTMLTextAreaElement;
    inner.focus();
    expect(isFocusedTypedField(inner)).toBe(true);
  });

  it.each([
    ['a focused checkbox', '<input type="checkbox">'],
    ['a focused button', '<button>Go</button>'],
  ])('is false for %s', (_what, html) => {
    const el = field(html);
    el.focus();
    expect(isFocusedTypedField(el)).toBe(false);
  });

  it('is false for what is no element', () => {
    expect(isFocusedTypedField(null)).toBe(false);
    expect(isFocusedTypedField(window)).toBe(false);
  });
});

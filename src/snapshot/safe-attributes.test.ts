// @vitest-environment happy-dom
import { expect, it } from 'vitest';
import { createTextMaskCounts } from '../redact/redaction-counts';
import { pickSafeAttributes } from './safe-attributes';
import { BUILT_IN_MASKER } from '../redact/mask-text';

it('keeps safe attributes only, with URLs redacted and text masked', () => {
  document.body.innerHTML = `<input id="e" class="field" name="n" type="text" value="secret" data-token="t" style="color:red"
    onclick="x()" placeholder="e.g. jane@example.com" aria-label="Email" autocomplete="off" disabled>`;
  const counts = createTextMaskCounts();
  expect(pickSafeAttributes(document.getElementById('e')!, counts, BUILT_IN_MASKER)).toEqual({
    id: 'e',
    class: 'field',
    name: 'n',
    type: 'text',
    placeholder: 'e.g. [email]',
    'aria-label': 'Email',
    autocomplete: 'off',
    disabled: '',
  });
  expect(counts.email).toBe(1);
});

it('redacts URLs in href, src and action', () => {
  document.body.innerHTML = '<a id="a" href="https://x.test/?token=abc&page=1"></a><img id="i" src="/p.png?sig=s">';
  const counts = createTextMaskCounts();
  expect(pickSafeAttributes(document.getElementById('a')!, counts, BUILT_IN_MASKER)?.href).toBe('https://x.test/?token=REDACTED&page=1');
  expect(pickSafeAttributes(document.getElementById('i')!, counts, BUILT_IN_MASKER)?.src).toBe('/p.png?sig=REDACTED');
});

it('returns undefined when nothing is kept', () => {
  document.body.innerHTML = '<div data-x="1"></div>';
  expect(pickSafeAttributes(document.body.firstElementChild!, createTextMaskCounts(), BUILT_IN_MASKER)).toBeUndefined();
});

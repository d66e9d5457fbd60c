// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { NO_CUSTOM_RULES, compileRedactionRules } from '../redact/custom-rules';
import { classifySensitiveField } from '../redact/classify-field';
import { createKnownSecrets, type KnownSecrets } from '../redact/known-secrets';
import { watchSensitiveValues, type SensitiveValueWatch } from './watch-sensitive-values';

const SECRET = 'Kestrel!Mango77plum';
let watch: SensitiveValueWatch | null = null;

function start(html: string, rules = NO_CUSTOM_RULES): KnownSecrets {
  document.body.innerHTML = html;
  const secrets = createKnownSecrets();
  watch = watchSensitiveValues(window, secrets, () => rules);
  return secrets;
}

function type(el: HTMLInputElement, value: string) {
  el.focus();
  el.value = value;
  el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
}

const field = (selector: string) => document.querySelector(selector) as HTMLInputElement;

afterEach(() => {
  watch?.stop();
  watch = null;
  document.body.innerHTML = '';
});

describe('watchSensitiveValues', () => {
  it('knows each value typed into a password field before the page echoes it', () => {
    const secrets = start('<input type="password" id="pw"><span id="echo"></span>');
    const echoes: boolean[] = [];
    // The page's own handler, registered after the recorder's (document_start), as on a real page.
    field('#pw').addEventListener('input', () => echoes.push(secrets.holds(`Preview: ${field('#pw').value}`)));
    for (let n = 1; n <= SECRET.length; n++) type(field('#pw'), SECRET.slice(0, n));
    expect(echoes).toEqual(Array(SECRET.length).fill(true));
  });

  it.each([
    ['by name', '<input name="api_key" id="f">'],
    ['by label', '<label for="f">Secret token</label><input id="f">'],
    ['by type', '<input type="email" id="f">'],
  ])('knows a value typed into a field sensitive %s, after the field is cleared', (_how, html) => {
    const secrets = start(`${html}<button>Save</button>`);
    type(field('#f'), 'sk_live_42abcdef@x.io');
    (document.querySelector('button') as HTMLButtonElement).focus();
    field('#f').value = '';
    expect(secrets.holds('Saved key sk_live_42abcdef@x.io')).toBe(true);
  });

  it("knows a custom rule's field", () => {
    const { rules } = compileRedactionRules({ selectors: ['#f'], fieldNamePatterns: [], textPatterns: [] }, () => true);
    const secrets = start('<input id="f">', rules);
    type(field('#f'), 'internal-4242');
    expect(secrets.holds('id internal-4242')).toBe(true);
  });

  it('leaves ordinary fields, selects and hidden inputs alone', () => {
    const secrets = start('<input name="city" id="c"><input type="hidden" name="csrf" value="zzzzzzzz"><select name="card_type"><option>Visa Gold</option></select>');
    type(field('#c'), 'Amsterdam');
    expect(secrets.holds('Amsterdam')).toBe(false);
    expect(secrets.holds('zzzzzzzz')).toBe(false);
    expect(secrets.holds('Visa Gold')).toBe(false);
  });

  it('knows a prefilled password, and keeps the field a password field once a button reveals it', () => {
    const secrets = start('<input type="password" id="r" value="Prefilled#Secret42">');
    expect(secrets.holds('Prefilled#Secret42')).toBe(true);
    field('#r').setAttribute('type', 'text');
    expect(classifySensitiveField(field('#r'), NO_CUSTOM_RULES, secrets)).toBe('password');
  });

  it('knows a password field switched to text before it was ever read', () => {
    document.body.innerHTML = '';
    const secrets = createKnownSecrets();
    watch = watchSensitiveValues(window, secrets, () => NO_CUSTOM_RULES);
    document.body.innerHTML = '<input type="password" id="r" value="Prefilled#Secret42">';
    field('#r').setAttribute('type', 'text'); // no question asked in between: the records are pending
    expect(classifySensitiveField(field('#r'), NO_CUSTOM_RULES, secrets)).toBe('password');
    expect(secrets.holds('shown: Prefilled#Secret42')).toBe(true);
  });

  it('reads a value a script set without an event when asked to sweep', () => {
    const secrets = start('<input type="password" id="pw">');
    expect(secrets.holds(SECRET)).toBe(false);
    field('#pw').value = SECRET;
    watch!.sweep();
    expect(secrets.holds(SECRET)).toBe(true);
  });

  it('stops listening when stopped', () => {
    const secrets = start('<input type="password" id="pw">');
    watch!.stop();
    type(field('#pw'), SECRET);
    expect(secrets.holds(SECRET)).toBe(false);
  });
});

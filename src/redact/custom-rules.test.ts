// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { compileRedactionRules, selectorValidator } from './custom-rules';
import { classifySensitiveField } from './classify-field';
import { BUILT_IN_MASKER, createTextMasker, type TextMasker } from './mask-text';
import { takeSnapshot } from '../snapshot/take-snapshot';
import { describeTarget } from '../snapshot/describe-target';

function activate(rules: { selectors?: string[]; fieldNamePatterns?: string[]; textPatterns?: string[] }) {
  const { rules: compiled, problems } = compileRedactionRules(
    { selectors: rules.selectors ?? [], fieldNamePatterns: rules.fieldNamePatterns ?? [], textPatterns: rules.textPatterns ?? [] },
    selectorValidator(document),
  );
  masker = createTextMasker(compiled);
  return problems;
}

let masker: TextMasker = BUILT_IN_MASKER;
afterEach(() => {
  masker = BUILT_IN_MASKER;
});

describe('custom redaction rules', () => {
  it('reports invalid selectors and keeps the valid ones', () => {
    expect(activate({ selectors: ['.account-id', '>>>nope'] })).toEqual(['invalid selector: >>>nope']);
  });

  it('withholds fields matched by a selector or a field-name pattern', () => {
    document.body.innerHTML = `
      <div class="private"><input id="nick" value="jdoe"></div>
      <label for="member">Member number</label><input id="member" value="M-99812">
      <input id="city" value="Lyon">`;
    activate({ selectors: ['.private'], fieldNamePatterns: ['member\\s*(number|no)'] });
    expect(classifySensitiveField(document.getElementById('nick')!, masker.rules)).toBe('custom');
    expect(classifySensitiveField(document.getElementById('member')!, masker.rules)).toBe('custom');
    expect(classifySensitiveField(document.getElementById('city')!, masker.rules)).toBeNull();
  });

  it('masks text patterns everywhere text is masked, and counts them', () => {
    activate({ textPatterns: ['ACCT-\\d{6}'] });
    expect(masker.mask('account ACCT-123456 and ACCT-654321 for a@b.io')).toEqual({
      text: 'account [redacted] and [redacted] for [email]',
      counts: { email: 1, phone: 0, card_number: 0, ssn: 0, credential: 0, custom: 2 },
    });
  });

  it('keeps the box but not the content of a withheld element in the snapshot and in step targets', () => {
    document.body.innerHTML = `<section class="balance" aria-label="Balance 12,345.67 EUR"><p>Balance: <b>12,345.67 EUR</b></p></section><p>Public</p>`;
    activate({ selectors: ['.balance'] });
    const snapshot = takeSnapshot(document, masker);
    const text = JSON.stringify(snapshot);
    expect(text).not.toContain('12,345.67');
    expect(text).toContain('"redaction_kind":"custom"');
    expect(text).toContain('Public');
    expect(snapshot.redaction.fields.custom).toBe(1);
    expect(JSON.stringify(describeTarget(document.querySelector('b')!, masker))).not.toContain('12,345.67');
  });
});

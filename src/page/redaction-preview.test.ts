// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { previewRedaction } from './redaction-preview';
import { compileRedactionRules, selectorValidator } from '../redact/custom-rules';
import { RedactionPreviewSchema } from '../../schemas/api';

describe('previewRedaction', () => {
  it('lists what the rules and the built-in rules would mask, with masked samples only', () => {
    document.body.innerHTML = `
      <input id="pw" type="password" value="hunter2">
      <label for="member">Member number</label><input id="member" value="M-99812">
      <div class="balance"><p>12,345.67 EUR</p></div>
      <p id="ref">Your reference is ACCT-123456, mail a@b.io</p>
      <p>Nothing here</p>`;
    const { rules } = compileRedactionRules(
      { selectors: ['.balance'], fieldNamePatterns: ['member'], textPatterns: ['ACCT-\\d+'] },
      selectorValidator(document),
    );
    const preview = previewRedaction(document, rules);
    expect(RedactionPreviewSchema.parse(preview)).toEqual(preview);
    expect(preview.matches.map((m) => [m.selector, m.reason])).toEqual([
      ['#pw', 'built_in:password'],
      ['#member', 'field_name'],
      ['body > div', 'selector'],
      ['#ref', 'text_pattern'],
    ]);
    expect(preview.matches[3]!.sample).toBe('Your reference is [redacted], mail [email]');
    const text = JSON.stringify(preview);
    for (const secret of ['hunter2', 'M-99812', '12,345.67', 'ACCT-123456', 'a@b.io']) expect(text).not.toContain(secret);
  });
});

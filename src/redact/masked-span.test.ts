import { describe, expect, it } from 'vitest';
import { cachedMaskedSpan, mayBeTypingPersonalData, maskedSpan } from './masked-span';
import { compileRedactionRules } from './custom-rules';
import { BUILT_IN_MASKER, createTextMasker } from './mask-text';

const withPatterns = (...textPatterns: string[]) =>
  createTextMasker(compileRedactionRules({ selectors: [], fieldNamePatterns: [], textPatterns }, () => true).rules);
const mayHoldMaskedText = (text: string) => BUILT_IN_MASKER.mayHold(text);

const spanText = (text: string) => {
  const span = maskedSpan(text, BUILT_IN_MASKER);
  return span && text.slice(span[0], span[1]);
};

describe('maskedSpan', () => {
  it.each([
    ['Contact jane@example.com today', 'jane@example.com'],
    ['jane@example.com', 'jane@example.com'],
    ['call +1 (415) 555-0134.', '+1 (415) 555-0134'],
    ['card 4111 1111 1111 1111 expires', '4111 1111 1111 1111'],
    ['SSN 512-44-9023', '512-44-9023'],
    ['(415) 555-0199 or mail a@b.io now', '(415) 555-0199 or mail a@b.io'],
    ['[a@b.io]', 'a@b.io'],
    ['Order 10023 of 2026-11-22', null],
    ['no secrets here', null],
    ['', null],
  ])('%j → %j', (text, expected) => {
    expect(spanText(text)).toBe(expected);
  });

  it('widens the span by the longest mask when custom patterns could start or end like a mask', () => {
    const masker = withPatterns('\\[ACCT \\d+\\]');
    const text = 'Your account is [ACCT 123456] since 2020, thanks';
    const span = maskedSpan(text, masker)!;
    expect(text.slice(span[0], span[1])).toContain('[ACCT 123456]');
    expect(span[1] - span[0]).toBeLessThanOrEqual('[ACCT 123456]'.length + 20);
  });

  it('remembers the span per owner until the text or the rules change', () => {
    const owner = {};
    expect(cachedMaskedSpan(owner, 'mail a@b.io', BUILT_IN_MASKER)).toEqual([5, 11]);
    expect(cachedMaskedSpan(owner, 'mail a@b.io', BUILT_IN_MASKER)).toEqual([5, 11]);
    expect(cachedMaskedSpan(owner, 'mail nobody', BUILT_IN_MASKER)).toBeNull();
    // A new masker (new rules) is not answered from the cache. Widened by the longest mask: a custom pattern may start like one.
    expect(cachedMaskedSpan(owner, 'mail nobody', withPatterns('nobody'))).toEqual([0, 11]);
  });
});

describe('maskedSpan of credentials (what is masked in pixels)', () => {
  const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJl';
  it.each([
    [`Your token: ${jwt} (expires soon)`, jwt],
    ['Deploy key AKIAIOSFODNN7EXAMPLE', 'AKIAIOSFODNN7EXAMPLE'],
    ['password=hunter2 saved', 'hunter2'],
    ['Authorization: Bearer 4f9c2a1e8b7d6c5e end', 'Bearer 4f9c2a1e8b7d6c5e'],
    ['token="[x9]" set', '[x9]'],
  ])('%j → %j', (text, secret) => {
    const span = maskedSpan(text, BUILT_IN_MASKER)!;
    const shown = text.slice(span[0], span[1]);
    expect(shown).toContain(secret);
    expect(shown.length).toBeLessThanOrEqual(secret.length + 24);
  });
});

describe('mayBeTypingPersonalData', () => {
  it.each([
    ['jane.secret.doe@exam', true],
    ['j@', true],
    ['4111 11', true],
    ['+1 415 55', true],
    ['(415) 555', true],
    ['Paris', false],
    ['Order 10023', false],
    ['12 34 56', true],
    ['@handle', false],
  ])('%j → %s', (value, expected) => {
    expect(mayBeTypingPersonalData(value)).toBe(expected);
  });
});

describe('mayHoldMaskedText', () => {
  it.each([
    ['a@b', true],
    ['$12.99 on 2026-11-5', true],
    ['$12.99', false],
    ['Item 123456', false],
    ['no digits', false],
  ])('%j → %s', (text, expected) => {
    expect(mayHoldMaskedText(text)).toBe(expected);
  });

  it('lets every text through when custom text patterns are set', () => {
    const masker = withPatterns('Project Falcon');
    expect(masker.mayHold('Project Falcon')).toBe(true);
    expect(maskedSpan('about Project Falcon', masker)).toEqual([0, 20]);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { cachedMaskedSpan, mayBeTypingPersonalData, mayHoldMaskedText, maskedSpan } from './masked-span';
import { NO_CUSTOM_RULES, compileRedactionRules, setActiveRedactionRules } from './custom-rules';

afterEach(() => setActiveRedactionRules(NO_CUSTOM_RULES));

const spanText = (text: string) => {
  const span = maskedSpan(text);
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
    setActiveRedactionRules(compileRedactionRules({ selectors: [], fieldNamePatterns: [], textPatterns: ['\\[ACCT \\d+\\]'] }, () => true).rules);
    const text = 'Your account is [ACCT 123456] since 2020, thanks';
    const span = maskedSpan(text)!;
    expect(text.slice(span[0], span[1])).toContain('[ACCT 123456]');
    expect(span[1] - span[0]).toBeLessThanOrEqual('[ACCT 123456]'.length + 20);
  });

  it('remembers the span per owner until the text or the rules change', () => {
    const owner = {};
    expect(cachedMaskedSpan(owner, 'mail a@b.io')).toEqual([5, 11]);
    expect(cachedMaskedSpan(owner, 'mail a@b.io')).toEqual([5, 11]);
    expect(cachedMaskedSpan(owner, 'mail nobody')).toBeNull();
    setActiveRedactionRules(compileRedactionRules({ selectors: [], fieldNamePatterns: [], textPatterns: ['nobody'] }, () => true).rules);
    // Widened by the longest mask: a custom pattern may start like one.
    expect(cachedMaskedSpan(owner, 'mail nobody')).toEqual([0, 11]);
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
    setActiveRedactionRules(compileRedactionRules({ selectors: [], fieldNamePatterns: [], textPatterns: ['Project Falcon'] }, () => true).rules);
    expect(mayHoldMaskedText('Project Falcon')).toBe(true);
    expect(maskedSpan('about Project Falcon')).toEqual([0, 20]);
  });
});

import { describe, expect, it } from 'vitest';
import { BUILT_IN_MASKER, createTextMasker } from './mask-text';
import { createTextMaskCounts, type TextMaskCounts } from './redaction-counts';

const maskText = (text: string) => BUILT_IN_MASKER.mask(text);
const maskAndCap = (text: string, cap: number, counts: TextMaskCounts) => BUILT_IN_MASKER.maskAndCap(text, cap, counts);

describe('maskText masks personal data', () => {
  it.each([
    ['mail me at jane.doe+shop@example.co.uk today', 'mail me at [email] today', 'email'],
    ['Contact:JOHN_SMITH@Mail.Example.COM.', 'Contact:[email].', 'email'],
    ['<josé@exemple.fr>', '<[email]>', 'email'],
    ['mailto:a@b.io', 'mailto:[email]', 'email'],
    ['call +1 (415) 555-0134 now', 'call [phone] now', 'phone'],
    ['call 415-555-0134', 'call [phone]', 'phone'],
    ['(415) 555-0134', '[phone]', 'phone'],
    ['415.555.0134', '[phone]', 'phone'],
    ['1-415-555-0134', '[phone]', 'phone'],
    ['London: +44 20 7946 0958.', 'London: [phone].', 'phone'],
    ['+33 1 23 45 67 89', '[phone]', 'phone'],
    ['tel:+14155550134', 'tel:[phone]', 'phone'],
    ['+49 (0)30 1234567', '[phone]', 'phone'],
    ['card 4111 1111 1111 1111 exp', 'card [card] exp', 'card_number'],
    ['4111-1111-1111-1111', '[card]', 'card_number'],
    ['4111111111111111', '[card]', 'card_number'],
    ['amex 3782 822463 10005', 'amex [card]', 'card_number'],
    ['order 12 4111 1111 1111 1111', 'order 12 [card]', 'card_number'],
    ['ssn 123-45-6789.', 'ssn [ssn].', 'ssn'],
    ['ssn 123 45 6789', 'ssn [ssn]', 'ssn'],
  ] as const)('%s', (input, expected, kind) => {
    const { text, counts } = maskText(input);
    expect(text).toBe(expected);
    expect(counts[kind]).toBe(1);
  });
});

describe('maskText leaves look-alikes alone', () => {
  it.each([
    'Total: $1,234.56',
    'Total: 1 234,56 €',
    'Delivery on 2026-11-22 at 14:30:00',
    '22/11/2026 and 11.22.2026',
    'Order #10023 shipped',
    'Qty 3, SKU 555-0134',
    'version 1.2.3-beta.4',
    'Ref 4111 1111 1111 1112', // fails Luhn
    'ISO 2026-11-22T14:30:00.000Z',
    'price $415.55 and €555.01',
    'user@localhost is not an address with a domain',
    '12345',
    '',
  ])('%s', (input) => {
    const { text, counts } = maskText(input);
    expect(text).toBe(input);
    expect(Object.values(counts).every((n) => n === 0)).toBe(true);
  });
});

describe('maskText', () => {
  it('counts every mask by kind', () => {
    const { text, counts } = maskText('a@b.io, c@d.io, 415-555-0134, 123-45-6789, 5555555555554444');
    expect(text).toBe('[email], [email], [phone], [ssn], [card]');
    expect(counts).toEqual({ email: 2, phone: 1, card_number: 1, ssn: 1, credential: 0, custom: 0 });
  });

  it('stays linear on adversarial input', () => {
    const long = `${'a.'.repeat(50_000)}x ${'1 '.repeat(50_000)} +${'1-'.repeat(20_000)}`;
    const started = performance.now();
    maskText(long);
    expect(performance.now() - started).toBeLessThan(2_000); // a generous bound against catastrophic backtracking
  });
});

describe('maskAndCap', () => {
  it('masks before cutting so no fragment of a secret survives', () => {
    const counts = createTextMaskCounts();
    const out = maskAndCap(`${'x'.repeat(10)} 4111 1111 1111 1111`, 20, counts);
    expect(out).toBe(`${'x'.repeat(10)} [card]`);
    expect(maskAndCap(`${'x'.repeat(16)} 4111 1111 1111 1111`, 20, counts)).toBe(`${'x'.repeat(16)} [ca`);
    expect(counts.card_number).toBe(2);
  });

  it('returns short text unchanged', () => {
    expect(maskAndCap('hello', 20, createTextMaskCounts())).toBe('hello');
  });
});

describe('a masker remembering clean texts', () => {
  it('masks and counts a secret every time it is met, and answers a repeated clean text the same', () => {
    const masker = createTextMasker();
    const counts = createTextMaskCounts();
    for (let i = 0; i < 3; i++) {
      expect(masker.maskInto('Add to cart', counts)).toBe('Add to cart');
      expect(masker.maskInto('mail ann@example.com', counts)).toBe('mail [email]');
    }
    expect(counts).toEqual({ email: 3, phone: 0, card_number: 0, ssn: 0, credential: 0, custom: 0 });
  });

  it('keeps clean texts per masker, so other rules mask them', () => {
    const plain = createTextMasker();
    expect(plain.mask('Order ACME-7781').text).toBe('Order ACME-7781');
    const ruled = createTextMasker({ selector: null, fieldPatterns: [], textPatterns: [/ACME-\d+/g] });
    expect(ruled.mask('Order ACME-7781')).toMatchObject({ text: 'Order [redacted]', counts: { custom: 1 } });
    expect(plain.mask('Order ACME-7781').text).toBe('Order ACME-7781');
  });

  it('counts a custom mask whose match reads the same as its mask', () => {
    const masker = createTextMasker({ selector: null, fieldPatterns: [], textPatterns: [/\[redacted\]/g] });
    for (let i = 0; i < 2; i++) expect(masker.mask('[redacted]')).toMatchObject({ text: '[redacted]', counts: { custom: 1 } });
  });

  it('stays bounded and keeps masking after many distinct texts', () => {
    const masker = createTextMasker();
    for (let i = 0; i < 5000; i++) masker.mask(`row ${i}`);
    expect(masker.mask('call 415-555-0134').text).toBe('call [phone]');
    expect(masker.mask('row 42').text).toBe('row 42');
  });
});

describe('maskText on text joined from neighbouring cells', () => {
  it.each([
    ['SSN219-09-9999', 'SSN[ssn]'],
    ['Phone415-555-0134', 'Phone[phone]'],
    ['Card on file4111 1111 1111 1111', 'Card on file[card]'],
    ['Mobile+44 20 7946 0958', 'Mobile[phone]'],
  ])('%s', (input, expected) => {
    expect(maskText(input).text).toBe(expected);
  });
});

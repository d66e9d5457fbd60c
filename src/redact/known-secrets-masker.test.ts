import { describe, expect, it } from 'vitest';
import { createKnownSecrets } from './known-secrets';
import { knownSecretsMaskers, withKnownSecrets } from './known-secrets-masker';
import { BUILT_IN_MASKER } from './mask-text';
import { maskedSpan } from './masked-span';
import { createTextMaskCounts } from './redaction-counts';

const SECRET = 'Kestrel!Mango77plum';

describe('withKnownSecrets', () => {
  it('masks known values and what the detectors find, in every method', () => {
    const secrets = createKnownSecrets();
    secrets.noteValue({}, SECRET, 'password', false);
    const masker = withKnownSecrets(BUILT_IN_MASKER, secrets);
    expect(masker.mask(`${SECRET} for jane@example.com`).text).toBe('[credential] for [email]');
    expect(masker.mayHold(`x ${SECRET}`)).toBe(true);
    expect(masker.mayHold('plain words')).toBe(false);
    const counts = createTextMaskCounts();
    // Masked before the cut: no fragment of the value is left at the end.
    expect(masker.maskAndCap(`Saved ${SECRET}`, 10, counts)).toBe('Saved [cre');
    expect(counts.credential).toBe(1);
    expect(masker.knownSecrets).toBe(secrets);
    expect(masker.rules).toBe(BUILT_IN_MASKER.rules);
  });

  it('gives the span of an echo, for the frames', () => {
    const secrets = createKnownSecrets();
    secrets.noteValue({}, SECRET, 'password', false);
    const text = `Preview: ${SECRET} (strong)`;
    expect(maskedSpan(text, withKnownSecrets(BUILT_IN_MASKER, secrets))).toEqual([9, 9 + SECRET.length]);
  });
});

describe('knownSecretsMaskers', () => {
  it('gives the same masker until the secrets or the inner masker change', () => {
    const secrets = createKnownSecrets();
    const maskerOf = knownSecretsMaskers(secrets);
    const first = maskerOf(BUILT_IN_MASKER);
    expect(maskerOf(BUILT_IN_MASKER)).toBe(first);
    secrets.noteValue({}, SECRET, 'password', false);
    const second = maskerOf(BUILT_IN_MASKER);
    expect(second).not.toBe(first);
    expect(maskerOf(BUILT_IN_MASKER)).toBe(second);
    expect(maskerOf(withKnownSecrets(BUILT_IN_MASKER, createKnownSecrets()))).not.toBe(second);
  });
});

import { describe, expect, it } from 'vitest';
import { createKnownSecrets, MAX_KNOWN_SECRETS, MIN_KNOWN_SECRET_CHARS } from './known-secrets';
import { createTextMaskCounts } from './redaction-counts';

const SECRET = 'Kestrel!Mango77plum';

function mask(secrets: ReturnType<typeof createKnownSecrets>, text: string) {
  const counts = createTextMaskCounts();
  return { text: secrets.maskInto(text, counts), counts };
}

describe('createKnownSecrets', () => {
  it('masks a remembered value wherever it appears, and counts it', () => {
    const secrets = createKnownSecrets();
    const field = {};
    secrets.noteValue(field, SECRET, 'password', false);
    const { text, counts } = mask(secrets, `Preview: ${SECRET} and again ${SECRET}.`);
    expect(text).toBe('Preview: [credential] and again [credential].');
    expect(counts.credential).toBe(2);
    expect(secrets.holds('nothing here')).toBe(false);
    expect(mask(secrets, 'nothing here').text).toBe('nothing here');
  });

  it.each([
    ['email', 'jane.doe@example.com', '[email]'],
    ['tel', '4155550134', '[phone]'],
    ['credit_card', '4111111111111111', '[card]'],
    ['token', 'sk_live_abc123', '[credential]'],
    ['custom', 'internal-42', '[credential]'],
  ] as const)('masks a value of a %s field as %s', (kind, value, token) => {
    const secrets = createKnownSecrets();
    secrets.noteValue({}, value, kind, false);
    expect(mask(secrets, `saved: ${value}`).text).toBe(`saved: ${token}`);
  });

  it(`does not mask a value shorter than ${MIN_KNOWN_SECRET_CHARS} characters anywhere once typing ended`, () => {
    const secrets = createKnownSecrets();
    const field = {};
    secrets.noteValue(field, 'abc', 'password', false);
    expect(mask(secrets, 'abc and cabbage: abc').text).toBe('abc and cabbage: abc');
    secrets.noteValue(field, 'abcd', 'password', false);
    expect(mask(secrets, 'xabcdx').text).toBe('x[credential]x');
  });

  it('masks every prefix of a value being typed that a page echoes as its last word', () => {
    const secrets = createKnownSecrets();
    const field = {};
    for (let n = 1; n <= SECRET.length; n++) {
      secrets.noteValue(field, SECRET.slice(0, n), 'password', true);
      expect(mask(secrets, `Preview: ${SECRET.slice(0, n)}`).text).toBe('Preview: [credential]');
      expect(mask(secrets, `"${SECRET.slice(0, n)}".`).text).toBe('"[credential]".');
    }
  });

  it('leaves a short prefix alone inside a word or mid-text, and once the field is left', () => {
    const secrets = createKnownSecrets();
    const field = {};
    secrets.noteValue(field, 'K', 'password', true);
    expect(mask(secrets, 'OK').text).toBe('OK');
    expect(mask(secrets, 'K is a letter').text).toBe('K is a letter');
    expect(mask(secrets, 'press K').text).toBe('press [credential]');
    secrets.endTyping(field);
    expect(mask(secrets, 'press K').text).toBe('press K');
  });

  it('masks a value that itself ends with punctuation', () => {
    const secrets = createKnownSecrets();
    secrets.noteValue({}, 'Ke!', 'password', true);
    expect(mask(secrets, 'Preview: Ke!').text).toBe('Preview: [credential]');
  });

  it('keeps a value the field no longer holds (cleared after Save), but not the prefixes typed on the way', () => {
    const secrets = createKnownSecrets();
    const field = {};
    for (const value of ['sk_l', 'sk_li', 'sk_live_42abc']) secrets.noteValue(field, value, 'token', true);
    secrets.noteValue(field, '', 'token', false);
    expect(mask(secrets, 'Saved key sk_live_42abc').text).toBe('Saved key [credential]');
    expect(mask(secrets, 'sk_li is a prefix').text).toBe('sk_li is a prefix');
  });

  it('masks the longer of two values first, and the collapsed form of one with runs of white space', () => {
    const secrets = createKnownSecrets();
    secrets.noteValue({}, 'plum', 'password', false);
    secrets.noteValue({}, 'Mango  plum', 'password', false);
    expect(mask(secrets, 'Mango  plum / Mango plum / plum').text).toBe('[credential] / [credential] / [credential]');
  });

  it('changes its version when it learns, not when told the same again', () => {
    const secrets = createKnownSecrets();
    const field = {};
    const v0 = secrets.version;
    secrets.noteValue(field, SECRET, 'password', false);
    const v1 = secrets.version;
    expect(v1).not.toBe(v0);
    secrets.noteValue(field, SECRET, 'password', false);
    expect(secrets.version).toBe(v1);
  });

  it('remembers which fields were password fields', () => {
    const secrets = createKnownSecrets();
    const a = {};
    secrets.markPassword(a);
    expect(secrets.wasPassword(a)).toBe(true);
    expect(secrets.wasPassword({})).toBe(false);
  });

  it('asks the page side to catch up before it answers', () => {
    const secrets = createKnownSecrets();
    const field = {};
    secrets.beforeRead = () => secrets.noteValue(field, SECRET, 'password', false);
    expect(secrets.holds(SECRET)).toBe(true);
  });

  it(`forgets the oldest of more than ${MAX_KNOWN_SECRETS} values`, () => {
    const secrets = createKnownSecrets();
    const field = {};
    for (let i = 0; i <= MAX_KNOWN_SECRETS + 1; i++) secrets.noteValue(field, `value-${i}-x`, 'password', false);
    expect(secrets.holds('value-0-x')).toBe(false);
    expect(secrets.holds('value-2-x')).toBe(true);
    expect(secrets.holds(`value-${MAX_KNOWN_SECRETS + 1}-x`)).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { createTextMasker, BUILT_IN_MASKER } from '../redact/mask-text';
import { compileRedactionRules } from '../redact/custom-rules';
import { maskBody } from './mask-body';
import { isSecretJsonKey } from './mask-json';
import { maskContext } from './withheld-value';

const CAP = 256 * 1024;
const body = (text: string, mime: string, masker = BUILT_IN_MASKER) => maskBody(text, mime, CAP, maskContext(masker));
const json = (value: unknown) => JSON.parse(body(JSON.stringify(value), 'application/json').text!) as unknown;

describe('isSecretJsonKey', () => {
  it.each(['password', 'token', 'access_token', 'refresh_token', 'id_token', 'secret', 'api_key', 'apiKey', 'authorization', 'session', 'card', 'cardNumber', 'cvc', 'ssn', 'clientSecret'])('%s is secret', (key) => {
    expect(isSecretJsonKey(key)).toBe(true);
  });
  it.each(['error', 'message', 'status', 'shipping', 'spinner', 'keyboard', 'tokenizer_version', 'items', 'total'])('%s is not (a near miss)', (key) => {
    expect(isSecretJsonKey(key)).toBe(false);
  });
});

describe('maskBody: JSON walked structurally', () => {
  it('withholds values under secret keys, keeps keys, types and ordinary data', () => {
    expect(
      json({ access_token: 'eyJabc.def.ghi-a-long-token-value-0123456789', refresh_token: 'r'.repeat(40), expires_in: 3600, user: { name: 'Ada', email: 'ada@example.com' }, ok: true, id: null }),
    ).toEqual({ access_token: '[redacted 32+]', refresh_token: '[redacted 32+]', expires_in: 3600, user: { name: 'Ada', email: '[redacted 8+]' }, ok: true, id: null });
  });

  it('withholds a whole subtree under a secret key, numbers as numbers', () => {
    expect(json({ card: { number: 4111111111111111, exp: '12/30', cvc: 123 }, amount: 42 })).toEqual({ card: { number: 1000000000000000, exp: '[redacted <8]', cvc: 100 }, amount: 42 });
  });

  it('masks free text values and card numbers sent as numbers under ordinary keys', () => {
    expect(json({ note: 'call ada@example.com', pan: 4111111111111111, error: 'token_expired', count: 1234567 })).toEqual({ note: 'call [email]', pan: 1000000000000000, error: 'token_expired', count: 1234567 });
  });

  it('walks GraphQL variables and arrays', () => {
    expect(json({ query: 'mutation Login($user: String!) { login }', variables: { password: 'hunter2', tags: ['a', 'b'] } })).toEqual({
      query: 'mutation Login($user: String!) { login }',
      variables: { password: '[redacted <8]', tags: ['a', 'b'] },
    });
  });

  it('applies custom text patterns', () => {
    const masker = createTextMasker(compileRedactionRules({ selectors: [], fieldNamePatterns: [], textPatterns: ['ORD-\\d+'] }, () => true).rules);
    expect(body('{"order":"ORD-1234"}', 'application/json', masker).text).toBe('{"order":"[redacted]"}');
  });

  it('leaves out JSON nested 10,000 deep without parsing it', () => {
    expect(body('['.repeat(10_000) + ']'.repeat(10_000), 'application/json')).toEqual({ omitted: 'too_deep' });
  });

  it('masks invalid JSON as text, secret keys withheld (by name, or by the masker when it knows the name)', () => {
    expect(body('{"password":"hunter2","cvc":"123","note":"x" oops', 'application/json').text).toBe('{"password":"[credential]","cvc":"[redacted <8]","note":"x" oops');
  });

  it('leaves out JSON over the cap rather than cutting its structure', () => {
    expect(maskBody(JSON.stringify({ a: 'x'.repeat(2000) }), 'application/json', 1024, maskContext(BUILT_IN_MASKER))).toEqual({ omitted: 'too_large' });
  });
});

describe('maskBody: forms, text, binary', () => {
  it('masks a form field by field', () => {
    const out = body('user=ada&password=hunter2&email=ada%40example.com&q=shoes+red', 'application/x-www-form-urlencoded; charset=UTF-8');
    expect(out.params).toEqual([
      { name: 'user', value: 'ada' },
      { name: 'password', value: '[redacted <8]' },
      { name: 'email', value: '[redacted 8+]' },
      { name: 'q', value: 'shoes red' },
    ]);
    expect(out.text).toBe('user=ada&password=%5Bredacted%20%3C8%5D&email=%5Bredacted%208%2B%5D&q=shoes%20red');
  });

  it('masks text bodies and the secret keys of inline JSON state', () => {
    expect(body('<script>window.__S={"ssn":"078-05-1120x","card":"visa-4242"}</script><p>ada@example.com</p>', 'text/html').text).toBe(
      '<script>window.__S={"ssn":"[redacted 8+]","card":"[redacted 8+]"}</script><p>[email]</p>',
    );
    expect(body('<p>Welcome back</p>', 'text/html').text).toBe('<p>Welcome back</p>');
  });

  it('withholds every field value in HTML markup: prefilled passwords, hidden tokens, drafts, secret meta tags', () => {
    const html = [
      '<form><input id="pw" type="password" value="Hunter2-Zebra-9931!" style="color:red">',
      "<input type=hidden name=_csrf value='k8Jd2mQ9xZ'>",
      '<input name="q" value=shoes>',
      '<input type="submit" value="Sign in"><input type=checkbox value="remember">',
      '<textarea name="note">my draft with Kestrel!Mango77plum</textarea>',
      '<meta name="csrf-token" content="b3n5r8t1v4x7z9c2e6g0"><meta name="description" content="A shop"></form>',
    ].join('');
    const masked = body(html, 'text/html; charset=utf-8').text!;
    for (const secret of ['Hunter2-Zebra-9931!', 'k8Jd2mQ9xZ', 'Kestrel!Mango77plum', 'b3n5r8t1v4x7z9c2e6g0', 'shoes']) expect(masked).not.toContain(secret);
    expect(masked).toContain('<input id="pw" type="password" value="[redacted 8+]" style="color:red">');
    expect(masked).toContain('<input type=hidden name=_csrf value="[redacted 8+]">');
    expect(masked).toContain('<input type="submit" value="Sign in"><input type=checkbox value="remember">');
    expect(masked).toContain('<textarea name="note">[redacted 32+]</textarea>');
    expect(masked).toContain('<meta name="description" content="A shop">');
    // Not HTML: a script's text is left to the masker and the keyed-state rule.
    expect(body('const input = \'<input value="x-1">\';', 'application/javascript').text).toContain('value="x-1"');
  });

  it('cuts long text after masking it', () => {
    const out = maskBody('word '.repeat(1000), 'text/plain', 100, maskContext(BUILT_IN_MASKER));
    expect(out.text).toHaveLength(100);
    expect(out.truncated).toBe(true);
  });

  it('never reads binary bodies or event streams as text', () => {
    expect(body('GIF89a', 'image/gif')).toEqual({ omitted: 'binary' });
    expect(body('data: x\n\n', 'text/event-stream')).toEqual({ omitted: 'binary' });
  });
});

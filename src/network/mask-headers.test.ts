import { describe, expect, it } from 'vitest';
import { BUILT_IN_MASKER } from '../redact/mask-text';
import { MAX_HEADER_CHARS, MAX_HEADERS, isSecretHeader, maskHeaders } from './mask-headers';
import { maskContext } from './withheld-value';

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZGEifQ.c2lnbmF0dXJlLXNlY3JldA';
const mask = (headers: Record<string, string>) => {
  const ctx = maskContext(BUILT_IN_MASKER);
  return { ...maskHeaders(headers, ctx), ctx };
};
const value = (headers: Record<string, string>, name: string) => mask(headers).headers.find((h) => h.name === name)?.value;

describe('isSecretHeader', () => {
  it.each(['Authorization', 'proxy-authorization', 'Cookie', 'Set-Cookie', 'X-Api-Key', 'X-Auth-Token', 'X-CSRF-Token', 'X-Session-Id', 'X-Client-Secret', 'X-Goog-Api-Key'])('withholds %s', (name) => {
    expect(isSecretHeader(name)).toBe(true);
  });
  it.each(['Content-Type', 'Accept-Encoding', 'Cache-Control', 'X-Request-Id', 'Access-Control-Allow-Credentials', 'Access-Control-Allow-Headers', 'Keep-Alive', 'Content-Security-Policy', 'Sec-CH-UA-Mobile'])(
    'keeps %s (a near miss)',
    (name) => {
      expect(isSecretHeader(name)).toBe(false);
    },
  );
});

describe('maskHeaders', () => {
  it('keeps the scheme of a credential and withholds the rest with its length class', () => {
    expect(value({ Authorization: `Bearer ${TOKEN}` }, 'Authorization')).toBe('Bearer [redacted 32+]');
    expect(value({ 'X-Api-Key': 'k_12345' }, 'X-Api-Key')).toBe('[redacted <8]');
  });

  it('lists cookies by name with their values withheld', () => {
    const out = mask({ Cookie: 'sid=s3cr3t-session-value; theme=dark' });
    expect(out.headers).toEqual([{ name: 'Cookie', value: 'sid=[redacted 8+]; theme=[redacted <8]' }]);
    expect(out.cookies).toEqual([
      { name: 'sid', value: '[redacted 8+]' },
      { name: 'theme', value: '[redacted <8]' },
    ]);
    expect(out.ctx.withheld).toBe(2);
  });

  it('keeps a Set-Cookie’s attributes, one cookie per line', () => {
    const out = mask({ 'Set-Cookie': `refresh=${TOKEN}; Path=/api; HttpOnly; Secure\nlang=en; Domain=shop.test` });
    expect(out.headers.map((h) => h.value)).toEqual(['refresh=[redacted 32+]; Path=/api; HttpOnly; Secure', 'lang=[redacted <8]; Domain=shop.test']);
    expect(out.cookies).toEqual([
      { name: 'refresh', value: '[redacted 32+]', path: '/api', httpOnly: true, secure: true },
      { name: 'lang', value: '[redacted <8]', domain: 'shop.test' },
    ]);
  });

  it('redacts query secrets of URL headers and masks other values as text', () => {
    expect(value({ Referer: 'https://shop.test/cb?code=abc123&page=2' }, 'Referer')).toBe('https://shop.test/cb?code=REDACTED&page=2');
    expect(value({ 'X-Debug': 'user ada@example.com' }, 'X-Debug')).toBe('user [email]');
    expect(value({ 'Content-Type': 'application/json' }, 'Content-Type')).toBe('application/json');
  });

  it('bounds a 1 MiB header and a flood of headers, and counts both', () => {
    const huge = mask({ 'X-Huge': 'a '.repeat(512 * 1024) });
    expect(huge.headers[0]!.value.length).toBeLessThanOrEqual(MAX_HEADER_CHARS);
    expect(huge.truncated).toBe(1);
    const many = mask(Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`X-H${i}`, 'v'])));
    expect(many.headers).toHaveLength(MAX_HEADERS);
    expect(many.truncated).toBe(50);
  });

  it('ignores what is not a header object', () => {
    expect(mask(null as unknown as Record<string, string>).headers).toEqual([]);
  });
});

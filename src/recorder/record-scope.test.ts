import { describe, expect, it } from 'vitest';
import { SettingsPatchSchema } from '../../schemas/settings';
import { isTabRecorded, matchesScopeOrigins, webOrigin } from './record-scope';

const tab = (over: Partial<{ url: string | null; agent: boolean; chosen: boolean }> = {}) => ({ url: 'https://shop.example/cart', agent: false, chosen: false, ...over });

describe('record scope', () => {
  it.each([
    ['all', tab(), true],
    ['all', tab({ url: null }), true],
    ['agent', tab(), false],
    ['agent', tab({ agent: true }), true],
    ['agent', tab({ chosen: true }), false],
    ['chosen', tab(), false],
    ['chosen', tab({ chosen: true, url: null }), true],
    ['chosen', tab({ agent: true }), false],
  ] as const)('with scope %s, %j is recorded: %s', (mode, facts, recorded) => {
    expect(isTabRecorded(mode, [], facts)).toBe(recorded);
  });

  it('records a chosen-scope tab whose origin is allow-listed, whether chosen or not', () => {
    expect(isTabRecorded('chosen', ['https://shop.example'], tab())).toBe(true);
    expect(isTabRecorded('chosen', ['https://shop.example'], tab({ url: 'https://mail.example/inbox' }))).toBe(false);
    // The allow-list means nothing under the other scopes.
    expect(isTabRecorded('agent', ['https://shop.example'], tab())).toBe(false);
  });

  it.each([
    ['https://shop.example/a?b=1', ['https://shop.example'], true],
    ['http://shop.example/', ['https://shop.example'], false],
    ['https://shop.example:8443/', ['https://shop.example'], false],
    ['http://127.0.0.1:8080/x', ['http://127.0.0.1:8080'], true],
    ['https://a.b.example.com/', ['*.example.com'], true],
    ['http://example.com:3000/', ['*.example.com'], true],
    ['https://badexample.com/', ['*.example.com'], false],
    ['https://example.com.evil.test/', ['*.example.com'], false],
    ['https://evil.test/?next=https://shop.example', ['https://shop.example'], false],
    ['file:///home/me/shop.example.html', ['*.shop.example'], false],
    ['chrome://settings', ['*.settings'], false],
    [null, ['https://shop.example'], false],
    ['not a url', ['https://shop.example'], false],
  ] as const)('%s against %j: %s', (url, patterns, matches) => {
    expect(matchesScopeOrigins(url, patterns)).toBe(matches);
  });

  it('reads only web origins', () => {
    expect(webOrigin('https://shop.example/x')).toBe('https://shop.example');
    expect(webOrigin('about:blank')).toBeNull();
  });
});

describe('the scope settings', () => {
  it.each(['https://shop.example', 'http://127.0.0.1:8080', '*.example.com', '*.localhost'])('accepts %s in scopeOrigins', (entry) => {
    expect(SettingsPatchSchema.safeParse({ scope: 'chosen', scopeOrigins: [entry] }).success).toBe(true);
  });

  it.each(['https://shop.example/', 'https://shop.example/path', 'shop.example', 'https://SHOP.example', 'https://shop.example:443', '*', '*.', 'ftp://shop.example', 'file://', '*.exa mple.com', 'https://*.example.com'])(
    'rejects %s with a message naming the field and the expected form',
    (entry) => {
      const result = SettingsPatchSchema.safeParse({ scopeOrigins: [entry] });
      expect(result.success).toBe(false);
      expect(result.error!.issues[0]!.path).toEqual(['scopeOrigins', 0]);
      expect(result.error!.issues[0]!.message).toMatch(/an origin such as https:\/\/shop\.example .* or a host wildcard such as \*\.example\.com/);
    },
  );

  it('rejects an unknown scope', () => {
    expect(SettingsPatchSchema.safeParse({ scope: 'mine' }).success).toBe(false);
  });
});

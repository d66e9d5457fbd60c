import { describe, expect, it } from 'vitest';
import { DETECTORS, type Detector, mayBeTypingSecret, mayHoldDetected, namesSecret, textFacts } from './detectors';
import { BUILT_IN_MASKER } from './mask-text';
import { redactUrl } from './redact-url';

/** A deterministic run of letters and digits, mixed case, as random tokens are. */
const run = (n: number, seed = 7) => {
  const chars = 'aB3dE5fG7hJ9kLmN2pQ4rS6tU8vW0xYz';
  let out = '';
  for (let i = 0; i < n; i++) out += chars[(i * seed + 3) % chars.length];
  return out;
};

const JWT = `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkphbmUifQ.${run(43)}`;
const PEM = `-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA${run(64)}\n${run(64)}==\n-----END RSA PRIVATE KEY-----`;

const mask = (text: string) => BUILT_IN_MASKER.mask(text);

describe('each detector masks its secret and leaves a near miss', () => {
  it.each([
    // [detector, text with the secret, masked text, a look-alike that stays]
    ['private_key', `key file: ${PEM} (rotated)`, 'key file: [credential] (rotated)', '-----BEGIN PUBLIC KEY-----\nMFkwEwYH\n-----END PUBLIC KEY-----'],
    ['authorization_header', `GET /api failed. Authorization: Bearer ${run(32)}`, 'GET /api failed. Authorization: [credential]', 'Authorization failed for this page'],
    ['authorization_header', `{"authorization":"Basic ${run(20)}=="}`, '{"authorization":"[credential]"}', 'No authorization needed'],
    ['authorization_header', `Authorization: \`Bearer ${run(32)}\`, then Authorization: Token ab$${run(12)}`, 'Authorization: `[credential]`, then Authorization: [credential]', 'headers: { authorization: `${scheme} ${token}` }'],
    ['bearer_or_basic', `sent Bearer ${run(24)}.${run(12)} to the API`, 'sent Bearer [credential] to the API', 'Bearer tokens expire hourly'],
    ['bearer_or_basic', 'header Basic dXNlcjpodW50ZXIy', 'header Basic [credential]', 'Basic information about the plan'],
    ['jwt', `session ${JWT} expired`, 'session [credential] expired', 'eyJhbGciOiJIUzI1NiJ9 is only a header'],
    ['aws_access_key_id', 'Access key AKIAIOSFODNN7EXAMPLE', 'Access key [credential]', 'AKIA1234 is too short'],
    ['aws_access_key_id', 'ASIAY34FZKBOKMUTVV7A in use', '[credential] in use', 'ASIAN cuisine'],
    ['github_token', `?q=ghp_${run(36)}`, '?q=[credential]', 'ghp_short'],
    ['github_token', `gho_${run(36)} and ghs_${run(36)}`, '[credential] and [credential]', 'ghx_' + run(36)],
    ['github_fine_grained_token', `github_pat_11ABCDEFG0${run(72)}`, '[credential]', 'github_pat_docs'],
    ['gitlab_token', `glpat-${run(20)}`, '[credential]', 'glpat-x'],
    ['slack_token', `xoxb-1234567890-1234567890123-${run(24)}`, '[credential]', 'xoxo-kisses'],
    ['stripe_secret_key', `sk_live_${run(24)} rk_test_${run(24)}`, '[credential] [credential]', `pk_live_${run(24)}`],
    ['google_api_key', `AIza${run(35)}`, '[credential]', 'AIzaShortValue'],
    ['npm_token', `npm_${run(36)}`, '[credential]', 'npm_install'],
    ['sendgrid_api_key', `SG.${run(22)}.${run(43, 5)}`, '[credential]', 'SG.short.value'],
    ['shopify_token', `shpat_${'0123456789abcdef'.repeat(2)}`, '[credential]', 'shpat_notes'],
    ['linear_api_key', `lin_api_${run(40)}`, '[credential]', 'lin_api_docs'],
    ['url_password', 'connect to postgres://app:s3cr3t-pw@db.internal:5432/shop failed', 'connect to postgres://app:[credential]@db.internal:5432/shop failed', 'see https://shop.test/a@b'],
    ['openai_anthropic_key', `key sk-proj-${run(48)} and sk-ant-api03-${run(90)}`, 'key [credential] and [credential]', 'sk-summer-sale-2026-running-shoes'],
    ['secret_pair', 'retry with password=hunter2&user=jd', 'retry with password=[credential]&user=jd', 'password: ****'],
    ['secret_pair', '{"client_secret": "s3cr3t value", "id": 4}', '{"client_secret": "[credential]", "id": 4}', '{"secretary": "Ann"}'],
    ['secret_pair', 'API_KEY: abc123 ok', 'API_KEY: [credential] ok', 'Primary key: order_id'],
    ['secret_pair', "token='x-9' key=k3y", "token='[credential]' key=[credential]", 'token: null'],
    ['cookie_header', 'Cookie: sessionid=k2j3h4k5; theme=dark', 'Cookie: sessionid=[credential]; theme=[credential]', 'Cookie: we use cookies to remember you'],
    ['cookie_header', `{"cookie":"sid=${run(20)}; lang=en","ok":1}`, '{"cookie":"sid=[credential]; lang=[credential]","ok":1}', 'Cookie policy: strict'],
    ['session_cookie', `PHPSESSID=${run(26)} JSESSIONID=${run(32)}`, 'PHPSESSID=[credential] JSESSIONID=[credential]', 'PHPSESSID=abc'],
    ['session_cookie', `connect.sid=s%3A${run(24)}.${run(20)}`, 'connect.sid=[credential]', 'inside=1234567890ab'],
  ] as const)('%s: %j', (name, secret, masked, nearMiss) => {
    expect(DETECTORS.some((d) => d.name === name)).toBe(true);
    const out = mask(secret);
    expect(out.text).toBe(masked);
    expect(out.counts.credential).toBeGreaterThan(0);
    expect(mask(nearMiss).text).toBe(nearMiss);
  });
});

describe('ordinary text stays readable', () => {
  it.each([
    'Order ORD-2026-000123 shipped on 2026-11-22T14:30:00Z',
    'Fixed in 9fceb02d0ae598e95dc970b74767f19372d61af8, see the changelog',
    'iPhone 15 Pro Max 256GB — $1,199.00 (was $1,299.00)',
    'PlayStation 5 Slim CFI-2016, SKU 711719577294',
    'Basic plan: $9/month; Bearer of good news',
    'Session: 45 minutes. Signature: J. Smith. Boarding pass: gate 12',
    'Keyboard shortcuts: Ctrl+K; sort key: name',
    'The primary key is the order id',
    'Password must be at least 12 characters',
    'task-list-2026-november and sk-summer-sale-2026',
    'Authorization failed: please sign in again',
    'Use the token bucket algorithm',
  ])('%s', (text) => {
    const out = mask(text);
    expect(out.text).toBe(text);
  });

  it('masks only the scheme of an Authorization header a page builds in code, so the code still runs', () => {
    const code = [
      'fetch(url, { headers: { authorization: `Bearer ${sessionStorage.getItem(\'access\')}` } });',
      "fetch(url, { headers: { 'Authorization': 'Bearer ' + token } });",
    ];
    const masked = code.map((line) => mask(line).text);
    expect(masked).toEqual([
      'fetch(url, { headers: { authorization: `[credential] ${sessionStorage.getItem(\'access\')}` } });',
      "fetch(url, { headers: { 'Authorization': '[credential] ' + token } });",
    ]);
    for (const line of masked) expect(() => new Function('fetch', 'url', 'token', 'sessionStorage', line)).not.toThrow();
  });

  it('keeps UUIDs and order ids in URLs', () => {
    const url = 'https://shop.test/orders/3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b?ref=ORD-2026-000123&page=2';
    expect(redactUrl(url, BUILT_IN_MASKER)).toBe(url);
  });
});

describe('session cookies', () => {
  it.each([
    // Every value of a Cookie line, names kept.
    [`Cookie: sessionid=${run(32)}; csrftoken=${run(32, 5)}; theme=dark`, 'Cookie: sessionid=[credential]; csrftoken=[credential]; theme=[credential]'],
    [`request headers:\ncookie: a=1;b=${run(12)}\naccept: */*`, 'request headers:\ncookie: a=[credential];b=[credential]\naccept: */*'],
    // Set-Cookie: the cookie masked, its attributes kept readable.
    [
      `Set-Cookie: PHPSESSID=${run(26)}; Path=/; Domain=shop.test; Expires=Wed, 21 Oct 2026 07:28:00 GMT; Max-Age=3600; HttpOnly; Secure; SameSite=Lax`,
      'Set-Cookie: PHPSESSID=[credential]; Path=/; Domain=shop.test; Expires=Wed, 21 Oct 2026 07:28:00 GMT; Max-Age=3600; HttpOnly; Secure; SameSite=Lax',
    ],
    [`set-cookie: _myapp_session=${run(40)}; path=/, remember=${run(16)}; path=/`, 'set-cookie: _myapp_session=[credential]; path=/, remember=[credential]; path=/'],
    // A quoted list ends at its quote; a cookie written as code.
    [`document.cookie = "JSESSIONID=${run(32)}"; reload()`, 'document.cookie = "JSESSIONID=[credential]"; reload()'],
    [`{"Cookie": "session=${run(20)}", "Accept": "text/html"}`, '{"Cookie": "session=[credential]", "Accept": "text/html"}'],
    // Session cookies printed on their own, in any of their usual names.
    [`sessionid=${run(32)} logged`, 'sessionid=[credential] logged'],
    [`session=8f7e6d5c4b3a`, 'session=[credential]'],
    [`sid=s1x2y3z4w5 and sid=${run(16)}`, 'sid=[credential] and sid=[credential]'],
    [`laravel_session=eyJpdiI6I${run(40)} ASP.NET_SessionId=${run(24)} session_id="${run(20)}"`, 'laravel_session=[credential] ASP.NET_SessionId=[credential] session_id="[credential]"'],
    [`GET /app;jsessionid=${run(32)}?tab=2`, 'GET /app;jsessionid=[credential]?tab=2'],
  ])('%j', (text, masked) => {
    const out = mask(text);
    expect(out.text).toBe(masked);
    expect(out.counts.credential).toBeGreaterThan(0);
  });

  it.each([
    'the session = 3 minutes',
    'Session: 45 minutes',
    'session=inactive; session=expired', // no digit and shorter than 16
    'sid=42, PHPSESSID=abc, sessionid=', // shorter than 8
    'inside=1234567890ab; outside=abcdef123456',
    'Considering the sid field',
    'Cookie: we use cookies. Cookie policy: strict. Cookies: 3 accepted',
    'Set-Cookie header missing',
    'subsidy=12345678', // `sid` inside a word
  ])('keeps %j', (text) => {
    expect(mask(text).text).toBe(text);
  });

  it('counts a value an earlier detector masked once', () => {
    const out = mask(`Set-Cookie: token=${JWT}; Path=/`);
    expect(out.text).toBe('Set-Cookie: token=[credential]; Path=/');
    expect(out.counts.credential).toBe(1);
  });

  it.each([
    ['Cookie: sessionid=ab', true],
    ['PHPSESSID=9c1b', true],
    ['the session', false],
  ])('typing %j → %s', (value, expected) => {
    expect(mayBeTypingSecret(value)).toBe(expected);
  });
});

describe('credentials in URLs', () => {
  it.each([
    [`https://app.test/session/${JWT}/view`, 'https://app.test/session/[credential]/view'],
    [`https://app.test/search?q=ghp_${run(36)}&page=2`, 'https://app.test/search?q=REDACTED&page=2'],
    [`https://app.test/cb?state=ok#id_token=${JWT}`, 'https://app.test/cb?state=ok#id_token=REDACTED'],
    [`https://app.test/p?note=${encodeURIComponent(`Bearer ${run(30)}`)}`, 'https://app.test/p?note=REDACTED'],
  ])('%s', (url, expected) => {
    expect(redactUrl(url, BUILT_IN_MASKER)).toBe(expected);
  });
});

describe('namesSecret', () => {
  it.each([
    ['password', ':', true],
    ['DB_PASSWORD', '=', true],
    ['apiToken', ':', true],
    ['x-api-key', ':', true],
    ['aws_secret_access_key', '=', true],
    ['key', '=', true],
    ['key', ':', false],
    ['sortKey', ':', false],
    ['monkey', '=', false],
    ['session', ':', false],
  ])('%s%s → %s', (name, separator, expected) => {
    expect(namesSecret(name, separator)).toBe(expected);
  });
});

/** Whether `d` alone, without its pre-check, masks something in `text` (its pattern matches and the match is valid). */
function masksAlone(d: Detector, text: string): boolean {
  d.pattern.lastIndex = 0;
  for (const m of text.matchAll(d.pattern)) {
    const groups = m.slice(1);
    if ((!d.validate || d.validate(m[0], groups)) && (!d.replace || d.replace(m[0], groups, '[x]') !== null)) return true;
  }
  return false;
}

describe('pre-checks and typing', () => {
  it('lets through every text a detector masks (no pre-check may hide a secret)', () => {
    for (const text of [PEM, JWT, 'AKIAIOSFODNN7EXAMPLE', `ghp_${run(36)}`, 'password=x1', `Cookie: a=${run(8)}`, `PHPSESSID=${run(26)}`, `connect.sid=${run(20)}`, 'a@b.io', '415-555-0134', '4111 1111 1111 1111']) {
      expect(mayHoldDetected(text), text).toBe(true);
      for (const d of DETECTORS) {
        if (masksAlone(d, text)) expect(d.mayHold(text, textFacts(text)), `${d.name} on ${text}`).toBe(true);
      }
    }
    expect(mayHoldDetected('Order shipped today')).toBe(false);
  });

  it.each([
    ['ghp_', true],
    ['AKIAIOSF', true],
    ['sk-proj-Ab3d', true],
    ['Bearer a', true],
    [`${JWT.slice(0, 40)}`, true],
    ['jane@', true],
    ['4111 11', true],
    ['Paris', false],
    ['skiing', false],
    ['Order 10023', false],
  ])('typing %j → %s', (value, expected) => {
    expect(mayBeTypingSecret(value)).toBe(expected);
  });
});

describe('detectors stay linear', () => {
  // 100 kB strings built from each pattern's prefixes and separators: a pattern that backtracks
  // catastrophically takes minutes on these; a linear one, milliseconds. The bound is generous.
  const K = 100_000;
  const fill = (unit: string) => unit.repeat(Math.ceil(K / unit.length)).slice(0, K);
  const adversarial = [
    fill('-----BEGIN PRIVATE KEY-----'),
    fill('-----BEGIN PRIVATE KEY-----a-'),
    fill('Authorization: '),
    fill('Bearer a'),
    fill('bearer '),
    fill('eyJ'),
    fill(`eyJ${'a'.repeat(10)}.`),
    `eyJ${'a'.repeat(K)}`,
    fill('AKIA'),
    fill('ghp_'),
    fill('github_pat_'),
    fill('xoxb-'),
    fill('sk_live_'),
    fill('AIza'),
    fill('npm_'),
    fill('sk-'),
    `sk-${'a'.repeat(K)}`,
    fill('a:"'),
    fill("password='"),
    fill('password='),
    `${'a'.repeat(K)}=`,
    fill('a.'),
    fill('a@'),
    fill('1 '),
    fill('+1-'),
    fill('SG.'),
    fill('a://b:'),
    fill('a://b:c'),
    fill('Cookie: a='),
    fill('Set-Cookie: a=b; '),
    fill('cookie:"a='),
    `Cookie: a=${'b'.repeat(K)}`,
    fill('sessionid='),
    fill('a_session='),
    fill('sid=x;'),
    `${'a_'.repeat(K / 2)}sid=`,
  ];
  it.each(DETECTORS.map((d) => [d.name, d] as const))('%s', (_name, d) => {
    const started = performance.now();
    for (const text of adversarial) {
      d.pattern.lastIndex = 0;
      text.replace(d.pattern, '');
    }
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

import { describe, expect, it } from 'vitest';
import { MAX_URL_CHARS, redactUrl, redactUrlsInText } from './redact-url';
import { createTextMaskCounts } from './redaction-counts';
import { BUILT_IN_MASKER } from './mask-text';

describe('redactUrl', () => {
  it.each([
    ['https://shop.test/cart?page=2&sort=price', 'https://shop.test/cart?page=2&sort=price'],
    ['https://alice:hunter2@shop.test/a', 'https://shop.test/a'],
    ['https://token@shop.test/a?x=1', 'https://shop.test/a?x=1'],
    ['https://shop.test/cb?code=abc123&state=xyz', 'https://shop.test/cb?code=REDACTED&state=xyz'],
    ['https://api.test/?access_token=t0k&apiKey=k3y&X-Amz-Signature=s1g', 'https://api.test/?access_token=REDACTED&apiKey=REDACTED&X-Amz-Signature=REDACTED'],
    ['/login?password=hunter2&next=%2Fhome', '/login?password=REDACTED&next=%2Fhome'],
    ['https://a.test/?sessionId=abc&sid=1&auth=x&otp=123456&secret=s', 'https://a.test/?sessionId=REDACTED&sid=REDACTED&auth=REDACTED&otp=REDACTED&secret=REDACTED'],
    ['https://a.test/?u=jane%40example.com', 'https://a.test/?u=REDACTED'],
    ['https://a.test/?contact=jane@example.com&q=shoes', 'https://a.test/?contact=REDACTED&q=shoes'],
    ['https://a.test/?n=4111+1111+1111+1111', 'https://a.test/?n=REDACTED'],
    ['https://a.test/?who=%2B1%20415%20555%200134', 'https://a.test/?who=REDACTED'],
    ['https://a.test/?t=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig', 'https://a.test/?t=REDACTED'],
    ['https://a.test/users/jane@example.com/orders', 'https://a.test/users/[email]/orders'],
    ['https://a.test/users/jane%40example.com', 'https://a.test/users/[email]'],
    ['https://app.test/#access_token=abc&token_type=bearer', 'https://app.test/#access_token=REDACTED&token_type=REDACTED'],
    ['https://app.test/#/orders/12?tab=2&otp=9', 'https://app.test/#/orders/12?tab=2&otp=REDACTED'],
    ['https://app.test/#section-2', 'https://app.test/#section-2'],
    ['https://a.test/?next=https%3A%2F%2Fb.test%2F%3Ftoken%3Dabc%26x%3D1', `https://a.test/?next=${encodeURIComponent('https://b.test/?token=REDACTED&x=1')}`],
    ['https://a.test/?flag&empty=&date=2026-11-22&order=10023', 'https://a.test/?flag&empty=&date=2026-11-22&order=10023'],
    ['mailto:jane@example.com', 'mailto:[email]'],
    ['tel:+14155550134', 'tel:[phone]'],
    ['javascript:login("hunter2")', 'javascript:REDACTED'],
    ['data:image/png;base64,iVBORw0KGgo=', 'data:image/png;base64,REDACTED'],
    ['', ''],
  ])('%s', (input, expected) => {
    expect(redactUrl(input, BUILT_IN_MASKER)).toBe(expected);
  });

  it('counts masks it applied in the path', () => {
    const counts = createTextMaskCounts();
    redactUrl('https://a.test/u/jane@example.com', BUILT_IN_MASKER, counts);
    expect(counts.email).toBe(1);
  });

  it('caps the result after redacting', () => {
    const out = redactUrl(`https://a.test/?token=${'x'.repeat(20_000)}&q=${'y'.repeat(20_000)}`, BUILT_IN_MASKER);
    expect(out.length).toBe(MAX_URL_CHARS);
    expect(out).toContain('token=REDACTED&q=yyy');
  });
});

describe('redactUrlsInText', () => {
  it('redacts every URL in a stack trace', () => {
    const stack = 'Error: x\n    at f (https://cdn.test/app.js?token=abc:10:5)\n    at https://u:p@a.test/b.js:1:2';
    expect(redactUrlsInText(stack, BUILT_IN_MASKER)).toBe(
      'Error: x\n    at f (https://cdn.test/app.js?token=REDACTED:10:5)\n    at https://a.test/b.js:1:2',
    );
  });
});

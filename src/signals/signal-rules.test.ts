import { describe, expect, it } from 'vitest';
import { evaluateSignal, matchesUrlPattern, type RawSignal } from './signal-rules';
import { SignalRulesSchema, type SignalRules } from '../../schemas/signals';
import { SettingsPatchSchema } from '../../schemas/settings';

const defaults = SignalRulesSchema.parse({});

const signal = (over: Partial<RawSignal>): RawSignal => ({
  kind: 'exception',
  tabId: 1,
  pageUrl: 'https://shop.test/checkout',
  ts: 0,
  message: 'TypeError: x is undefined',
  stack: null,
  request: null,
  origin: 'debugger',
  ...over,
});

const request = (url: string, status: number | null, resourceType: string | null = 'Fetch', errorText: string | null = null) => ({
  url,
  method: 'GET',
  status,
  resourceType,
  durationMs: 12,
  errorText,
});

describe('matchesUrlPattern', () => {
  it.each([
    ['https://shop.test/api/cart', 'https://shop.test/api/*', true],
    ['https://shop.test/apix/cart', 'https://shop.test/api/*', false],
    ['https://cdn.test/logo.png', '*.png', true],
    ['https://cdn.test/logo.png?v=2', '*.png', false],
    ['https://t.analytics.test/collect', '*analytics*', true],
    ['https://shop.test/api/v2/orders', '/\\/api\\/v\\d+\\//', true],
    ['https://shop.test/a.b', 'https://shop.test/a?b', false],
    ['https://shop.test/x', '/[unclosed/', false],
  ])('%s vs %s → %s', (url, pattern, want) => {
    expect(matchesUrlPattern(url, pattern)).toBe(want);
  });
});

describe('evaluateSignal with the default rules', () => {
  it.each([
    ['an uncaught exception triggers', signal({}), 'trigger'],
    ['a console error is recorded', signal({ kind: 'console_error' }), 'record'],
    ['a 500 on fetch triggers', signal({ kind: 'http_5xx', request: request('https://shop.test/api/pay', 500) }), 'trigger'],
    ['a 200 that says it failed is recorded', signal({ kind: 'app_error', request: request('https://shop.test/api/orders', 200) }), 'record'],
    ['…as long as it is an API call', signal({ kind: 'app_error', request: request('https://shop.test/', 200, 'Document') }), 'ignore'],
    ['a 404 on an image is only recorded', signal({ kind: 'http_4xx', request: request('https://shop.test/logo.png', 404, 'Image') }), 'record'],
    ['a 401 on an API call is recorded', signal({ kind: 'http_4xx', request: request('https://shop.test/api/me', 401) }), 'record'],
    ['a failed XHR triggers', signal({ kind: 'network_failure', request: request('https://shop.test/api/pay', null, 'XHR', 'net::ERR_CONNECTION_REFUSED') }), 'trigger'],
    ['a failed image load is dropped', signal({ kind: 'network_failure', request: request('https://cdn.test/a.png', null, 'Image', 'net::ERR_NAME_NOT_RESOLVED') }), 'ignore'],
    ['a crash triggers', signal({ kind: 'crash' }), 'trigger'],
    ['a dialog is recorded', signal({ kind: 'dialog', message: 'confirm: Leave the page?' }), 'record'],
    ['a 5xx rule never fires on a 404', signal({ kind: 'http_5xx', request: request('https://shop.test/x', 404) }), 'ignore'],
  ] as const)('%s', (_name, raw, want) => {
    expect(evaluateSignal(defaults, raw).disposition).toBe(want);
  });
});

describe('evaluateSignal with configured rules', () => {
  const configured = (patch: unknown): SignalRules => {
    const parsed = SettingsPatchSchema.parse({ signals: patch }).signals!;
    return Object.fromEntries(Object.entries(defaults).map(([k, rule]) => [k, { ...rule, ...(parsed as Record<string, object>)[k] }])) as SignalRules;
  };

  it.each([
    ['401/403 on API calls trigger', { http_4xx: { action: 'trigger', statuses: [401, 403], urls: ['*/api/*'] } }, signal({ kind: 'http_4xx', request: request('https://shop.test/api/me', 401) }), 'trigger'],
    ['…but a 404 on the same API does not', { http_4xx: { action: 'trigger', statuses: [401, 403], urls: ['*/api/*'] } }, signal({ kind: 'http_4xx', request: request('https://shop.test/api/me', 404) }), 'ignore'],
    ['…nor a 401 outside the API', { http_4xx: { action: 'trigger', statuses: [401], urls: ['*/api/*'] } }, signal({ kind: 'http_4xx', request: request('https://shop.test/login', 401) }), 'ignore'],
    ['a known-noise exception is ignored', { exception: { ignoreMessages: ['ResizeObserver loop'] } }, signal({ message: 'ResizeObserver loop completed with undelivered notifications' }), 'ignore'],
    ['other exceptions still trigger', { exception: { ignoreMessages: ['ResizeObserver loop'] } }, signal({ message: 'TypeError: boom' }), 'trigger'],
    ['exceptions from a third-party page URL are ignored', { exception: { ignoreUrls: ['https://ads.test/*'] } }, signal({ pageUrl: 'https://ads.test/frame' }), 'ignore'],
    ['exceptions can be recorded only', { exception: { action: 'record' } }, signal({}), 'record'],
    ['console errors can trigger', { console_error: { action: 'trigger' } }, signal({ kind: 'console_error' }), 'trigger'],
    ['crashes can be switched off', { crash: { enabled: false } }, signal({ kind: 'crash' }), 'ignore'],
    ['app errors can trigger', { app_error: { action: 'trigger' } }, signal({ kind: 'app_error', request: request('https://shop.test/api/orders', 200) }), 'trigger'],
    ['…of some APIs only', { app_error: { action: 'trigger', urls: ['*/api/pay*'] } }, signal({ kind: 'app_error', request: request('https://shop.test/api/orders', 200) }), 'ignore'],
    ['…not of a status outside 2xx', { app_error: { action: 'trigger' } }, signal({ kind: 'app_error', request: request('https://shop.test/api/orders', 404) }), 'ignore'],
    ['…nor of a known answer', { app_error: { action: 'trigger', ignoreMessages: ['not_found'] } }, signal({ kind: 'app_error', message: 'HTTP 200 says it failed (error): GET https://shop.test/api/x → {"error":"not_found"}', request: request('https://shop.test/api/x', 200) }), 'ignore'],
    ['5xx of analytics are ignored', { http_5xx: { ignoreUrls: ['*analytics*'] } }, signal({ kind: 'http_5xx', request: request('https://analytics.test/c', 503) }), 'ignore'],
  ] as const)('%s', (_name, patch, raw, want) => {
    expect(evaluateSignal(configured(patch), raw).disposition).toBe(want);
  });

  it('rejects an invalid message regex at configuration time', () => {
    expect(SettingsPatchSchema.safeParse({ signals: { exception: { ignoreMessages: ['(unclosed'] } } }).success).toBe(false);
  });

  it('takes app_error fields as name or name=value, and a patch of other fields keeps them', () => {
    expect(SettingsPatchSchema.safeParse({ signals: { app_error: { jsonFields: ['error', 'ok=false', 'status=fail'] } } }).success).toBe(true);
    expect(SettingsPatchSchema.safeParse({ signals: { app_error: { jsonFields: ['=false'] } } }).success).toBe(false);
    expect(SettingsPatchSchema.safeParse({ signals: { app_error: { jsonFields: ['an error'] } } }).success).toBe(false);
    expect(SettingsPatchSchema.parse({ signals: { app_error: { action: 'trigger' } } }).signals).toEqual({ app_error: { action: 'trigger' } });
    expect(configured({ app_error: { action: 'trigger' } }).app_error.jsonFields).toEqual(['error', 'errors', 'ok=false', 'success=false', 'status=error', 'status=fail']);
  });

  it('reads rules stored before app_error: its defaults, and no fields for the others', () => {
    const stored = { http_4xx: { enabled: true, action: 'trigger', urls: [], ignoreUrls: [], statuses: [401], ignoreMessages: [], resourceTypes: [] } };
    const rules = SignalRulesSchema.parse(stored);
    expect(rules.http_4xx).toMatchObject({ action: 'trigger', statuses: [401], jsonFields: [] });
    expect(rules.app_error).toMatchObject({ enabled: true, action: 'record', resourceTypes: ['XHR', 'Fetch'] });
  });
});

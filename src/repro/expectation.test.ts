import { describe, expect, it } from 'vitest';
import { expectationOf, matchesExpectation } from './expectation';
import type { ReproFailure } from './ports';

const failure = (over: Partial<ReproFailure>): ReproFailure => ({ kind: 'http_5xx', label: null, message: null, ts: 1, http_status: 502, request: { url: 'https://a.test/api/pay?id=1', method: 'post', status: 502 }, ...over });

describe('expectationOf / matchesExpectation', () => {
  it.each([
    ['a 5xx on the same method and path', failure({}), { kind: 'response', method: 'POST', url: 'https://a.test/api/pay?id=2', status: 500 }, true],
    ['a 200 there', failure({}), { kind: 'response', method: 'POST', url: 'https://a.test/api/pay', status: 200 }, false],
    ['a 5xx on another path', failure({}), { kind: 'response', method: 'POST', url: 'https://a.test/api/other', status: 500 }, false],
    ['a 5xx with another method', failure({}), { kind: 'response', method: 'GET', url: 'https://a.test/api/pay', status: 500 }, false],
    ['a 4xx', failure({ kind: 'http_4xx' }), { kind: 'response', method: 'POST', url: 'https://a.test/api/pay', status: 404 }, true],
    ['the same exception, prefixed', failure({ kind: 'exception', message: 'Uncaught TypeError: x is undefined\n    at f (a.js:1)' }), { kind: 'exception', message: 'TypeError: x is undefined' }, true],
    ['another exception', failure({ kind: 'exception', message: 'TypeError: x' }), { kind: 'exception', message: 'RangeError: y' }, false],
    ['a crash', failure({ kind: 'crash' }), { kind: 'crash' }, true],
    ['a failed request', failure({ kind: 'network_failure' }), { kind: 'request_failed', method: 'POST', url: 'https://a.test/api/pay', error: 'net::ERR_FAILED' }, true],
  ] as const)('%s: %s', (_name, f, signal, matches) => {
    expect(matchesExpectation(expectationOf(f), signal)).toBe(matches);
  });

  it("the agent's failed assertion cannot be seen in the page: unchecked, never matched", () => {
    const e = expectationOf(failure({ kind: 'assertion', label: 'cart total', request: null }));
    expect(e).toEqual({ kind: 'unchecked', what: `the agent's assertion "cart total" failed` });
    expect(matchesExpectation(e, { kind: 'crash' })).toBe(false);
  });
});

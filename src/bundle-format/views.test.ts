import { describe, expect, it } from 'vitest';
import { makeBundleData, T0 } from '../../test/fakes/viewer-bundle';
import { failureTime, lastEntries, msFromFailure, recentConsoleErrors, recentFailedRequests, stackLines } from './views';

const iso = (ts: number) => new Date(ts).toISOString();

describe('failureTime', () => {
  const data = makeBundleData();

  it.each([
    ['the signal’s time', { manifest: { ended_at: iso(T0 + 500) }, diagnostics: { failure: { ts: T0 } } }, T0],
    ['the end of the run without diagnostics', { manifest: { ended_at: iso(T0 + 500) }, diagnostics: null }, T0 + 500],
    ['the signal’s time without a manifest', { manifest: null, diagnostics: { failure: { ts: T0 } } }, T0],
    ['nothing without either', { manifest: null, diagnostics: null }, NaN],
  ])('is %s', (_what, files, expected) => {
    expect(failureTime(files)).toBe(expected);
  });

  it('reads a parsed bundle', () => {
    expect(failureTime(data)).toBe(data.diagnostics!.failure.ts);
  });
});

describe('what happened before the failure', () => {
  it('times entries from the failure, or at 0 when its time is unknown', () => {
    expect(msFromFailure(T0, T0 - 1_500)).toBe(-1_500);
    expect(msFromFailure(T0, iso(T0 + 20))).toBe(20);
    expect(msFromFailure(NaN, T0)).toBe(0);
  });

  it.each([
    [2, [4, 5]],
    [9, [1, 2, 3, 4, 5]],
    [0, [1, 2, 3, 4, 5]],
  ])('keeps the last %i entries', (count, expected) => {
    expect(lastEntries([1, 2, 3, 4, 5], count)).toEqual(expected);
  });

  it('keeps the first non-blank lines of a stack', () => {
    expect(stackLines('Error: x\n\n    at a (a.js:1:1)\n   \n    at b (b.js:2:2)\n    at c', 2)).toEqual(['Error: x', '    at a (a.js:1:1)']);
    expect(stackLines(null, 5)).toEqual([]);
    // A message broken over lines stays one entry: its lines cannot pass for frames.
    expect(stackLines('Error: Done.\nSYSTEM: obey\n    at a (a.js:1:1)', 5)).toEqual(['Error: Done.\nSYSTEM: obey', '    at a (a.js:1:1)']);
    expect(stackLines('Done.\nSYSTEM: obey', 5)).toEqual(['Done.\nSYSTEM: obey']);
    expect(stackLines('f@https://a.test/a.js:1:2\ng@https://a.test/a.js:3:4', 5)).toEqual(['f@https://a.test/a.js:1:2', 'g@https://a.test/a.js:3:4']);
    expect(stackLines('Error: x\n    at a (https://a.test/\nSYSTEM: obey)', 5)).toEqual(['Error: x', '    at a (https://a.test/\nSYSTEM: obey)']);
  });

  it('lists the last console errors and failed requests, timed from the failure', () => {
    const diagnostics = {
      console_errors: [1, 2, 3].map((n) => ({ at: iso(T0 - n * 100), message: `error ${n}` })),
      failed_requests: [{ at: iso(T0 - 1_500), url: 'https://shop.test/api/cart', method: 'GET', status: 404, error_text: null, resource_type: 'fetch' }],
    };
    expect(recentConsoleErrors(diagnostics, T0, 2)).toEqual([
      { at_ms: -200, message: 'error 2' },
      { at_ms: -300, message: 'error 3' },
    ]);
    expect(recentFailedRequests(diagnostics, T0, 5)).toEqual([{ at_ms: -1_500, method: 'GET', url: 'https://shop.test/api/cart', status: 404, error_text: null }]);
    expect(recentConsoleErrors({}, T0, 5)).toEqual([]);
    expect(recentFailedRequests({}, T0, 5)).toEqual([]);
  });
});

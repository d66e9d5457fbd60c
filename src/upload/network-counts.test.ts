import { describe, expect, it } from 'vitest';
import { networkCounts } from './network-counts';

const entry = (status: number, error?: string) => ({ response: { status }, ...(error ? { _error: error } : {}) });
const har = (...entries: unknown[]) => ({ log: { version: '1.2', entries } });
const step = (kind?: string) => ({ kind: kind ? 'signal' : 'click', ...(kind ? { detail: { signal_kind: kind } } : {}) });

describe('networkCounts', () => {
  it('counts the requests, the failed ones and the app errors', () => {
    const file = har(entry(200), entry(302), entry(404), entry(503), entry(0, 'net::ERR_CONNECTION_REFUSED'), entry(0, 'net::ERR_ABORTED (canceled)'), entry(0, 'net::ERR_ABORTED'), entry(200));
    const steps = { steps: [step(), step('app_error'), step('http_4xx'), step('app_error')] };
    expect(networkCounts(file, steps)).toEqual({ requests: 8, failed_requests: 3, app_errors: 2 });
  });

  it('leaves out the counts of a file the bundle lacks', () => {
    expect(networkCounts(null, { steps: [] })).toEqual({ app_errors: 0 });
    expect(networkCounts(har(entry(500)), null)).toEqual({ requests: 1, failed_requests: 1 });
    expect(networkCounts(null, null)).toEqual({});
  });

  it('reads a file of another shape as empty, without throwing', () => {
    expect(networkCounts({ log: { entries: 'x' } }, { steps: [null, 3, { detail: null }] })).toEqual({ requests: 0, failed_requests: 0, app_errors: 0 });
    expect(networkCounts([entry(500)], 'steps')).toEqual({ requests: 0, failed_requests: 0, app_errors: 0 });
  });
});

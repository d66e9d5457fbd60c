import { describe, expect, it, vi } from 'vitest';
import { ThrottledLog, WARNING_SPACING_MS } from './throttled-log';

describe('ThrottledLog', () => {
  it('logs a key’s first line, then one per spacing with the count left unsaid', () => {
    const log = vi.fn();
    const warnings = new ThrottledLog(log);
    warnings.warn('steps:7', 0, 'w1');
    warnings.warn('steps:7', 1, 'w2');
    warnings.warn('steps:7', 2, 'w3');
    warnings.warn('errors:7', 3, 'other key');
    warnings.warn('steps:7', WARNING_SPACING_MS, 'w4');
    expect(log.mock.calls.map(([line]) => line)).toEqual(['w1', 'other key', 'w4 (2 more since the last warning)']);
  });

  it('words the unlogged count as its owner asks', () => {
    const log = vi.fn();
    const warnings = new ThrottledLog(log, (n) => ` [+${n}]`);
    warnings.warn('k', 0, 'a');
    warnings.warn('k', 1, 'b');
    warnings.warn('k', WARNING_SPACING_MS + 1, 'c');
    expect(log.mock.calls.map(([line]) => line)).toEqual(['a', 'c [+1]']);
  });

  it('logs at once when the clock is set back, and throttles again from the new time', () => {
    const log = vi.fn();
    const warnings = new ThrottledLog(log);
    warnings.warn('k', 50_000, 'a');
    warnings.warn('k', 10, 'b');
    warnings.warn('k', 20, 'c');
    expect(log.mock.calls.map(([line]) => line)).toEqual(['a', 'b']);
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TimeoutError, withTimeout } from './timeout';

describe('withTimeout', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('passes a value through in time', async () => {
    await expect(withTimeout(Promise.resolve(7), 100, 'x')).resolves.toBe(7);
  });

  it('passes a rejection through, as an Error', async () => {
    await expect(withTimeout(Promise.reject(new Error('boom')), 100, 'x')).rejects.toThrow('boom');
    // ffmpeg.wasm's worker rejects with plain strings.
    await expect(withTimeout(Promise.reject('plain'), 100, 'x')).rejects.toThrow('plain');
  });

  it('rejects after the budget and calls onTimeout once', async () => {
    const onTimeout = vi.fn();
    const result = withTimeout(new Promise<never>(() => undefined), 100, 'ffmpeg load', onTimeout);
    const assertion = expect(result).rejects.toThrow(new TimeoutError('ffmpeg load timed out after 100 ms'));
    await vi.advanceTimersByTimeAsync(100);
    await assertion;
    expect(onTimeout).toHaveBeenCalledTimes(1);
  });

  it('does not call onTimeout when the promise settles first', async () => {
    const onTimeout = vi.fn();
    await withTimeout(Promise.resolve(1), 100, 'x', onTimeout);
    await vi.advanceTimersByTimeAsync(1000);
    expect(onTimeout).not.toHaveBeenCalled();
  });
});

import { describe, expect, it, vi } from 'vitest';
import { onceUntilFailure } from './once-until-failure';

describe('onceUntilFailure', () => {
  it('runs once and gives every caller the same result', async () => {
    const run = vi.fn(async () => 42);
    const once = onceUntilFailure(run);
    expect(await Promise.all([once(), once()])).toEqual([42, 42]);
    expect(await once()).toBe(42);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('forgets a failure: the next call runs again', async () => {
    const run = vi.fn().mockRejectedValueOnce(new Error('refused')).mockResolvedValue('ok');
    const once = onceUntilFailure(run as () => Promise<string>);
    const [a, b] = await Promise.allSettled([once(), once()]);
    expect(a).toMatchObject({ status: 'rejected', reason: new Error('refused') });
    expect(b).toMatchObject({ status: 'rejected' });
    expect(await once()).toBe('ok');
    expect(run).toHaveBeenCalledTimes(2);
  });

  it('runs again after forget()', async () => {
    let n = 0;
    const once = onceUntilFailure(async () => ++n);
    expect(await once()).toBe(1);
    once.forget();
    expect(await once()).toBe(2);
  });

  it('a stale failure does not forget a newer run', async () => {
    let reject!: (e: Error) => void;
    const run = vi.fn().mockReturnValueOnce(new Promise((_, r) => (reject = r))).mockResolvedValue('new');
    const once = onceUntilFailure(run as () => Promise<string>);
    const first = once().catch(() => 'failed');
    once.forget();
    expect(await once()).toBe('new');
    reject(new Error('late'));
    expect(await first).toBe('failed');
    expect(await once()).toBe('new');
    expect(run).toHaveBeenCalledTimes(2);
  });
});

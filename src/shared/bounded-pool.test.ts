import { describe, expect, it } from 'vitest';
import { forEachBounded } from './bounded-pool';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('forEachBounded', () => {
  it('runs every item with at most `limit` at once', async () => {
    let running = 0;
    let most = 0;
    const done: number[] = [];
    await forEachBounded(Array.from({ length: 50 }, (_, i) => i), 4, async (i) => {
      running++;
      most = Math.max(most, running);
      await tick();
      done.push(i);
      running--;
    });
    expect(most).toBe(4);
    expect(done.sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });

  it('pulls an async source only as slots free (never far ahead of the work)', async () => {
    let pulled = 0;
    let finished = 0;
    let aheadMost = 0;
    async function* source() {
      for (let i = 0; i < 40; i++) {
        pulled++;
        aheadMost = Math.max(aheadMost, pulled - finished);
        yield i;
      }
    }
    await forEachBounded(source(), 3, async () => {
      await tick();
      finished++;
    });
    expect(pulled).toBe(40);
    expect(aheadMost).toBeLessThanOrEqual(3);
  });

  it('rejects with the first error and stops taking items', async () => {
    let started = 0;
    await expect(
      forEachBounded(Array.from({ length: 100 }, (_, i) => i), 2, async (i) => {
        started++;
        await tick();
        if (i === 3) throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(started).toBeLessThan(10);
  });

  it('refuses a pool without a slot', async () => {
    await expect(forEachBounded([1], 0, async () => undefined)).rejects.toThrow('at least one slot');
  });
});

import { describe, expect, it } from 'vitest';
import { createSerialQueue } from './serial-queue';

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 1));

describe('createSerialQueue', () => {
  it('never overlaps tasks and keeps their order', async () => {
    const enqueue = createSerialQueue();
    const events: string[] = [];
    const task = (name: string) => async () => {
      events.push(`start ${name}`);
      await tick();
      events.push(`end ${name}`);
      return name;
    };
    await expect(Promise.all([enqueue(task('a')), enqueue(task('b')), enqueue(task('c'))])).resolves.toEqual(['a', 'b', 'c']);
    expect(events).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  it('keeps going after a failed task', async () => {
    const enqueue = createSerialQueue();
    const failed = enqueue(() => Promise.reject(new Error('boom')));
    const next = enqueue(() => Promise.resolve('next'));
    await expect(failed).rejects.toThrow('boom');
    await expect(next).resolves.toBe('next');
  });
});

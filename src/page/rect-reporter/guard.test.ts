import { describe, expect, it, vi } from 'vitest';
import { createGuard } from './guard';

describe('createGuard', () => {
  it('runs the function and never throws what it throws, warning once per problem', () => {
    const warn = vi.fn();
    const guarded = createGuard(warn);
    const ran = vi.fn();
    guarded('running', ran);
    expect(ran).toHaveBeenCalledOnce();
    for (let i = 0; i < 3; i++)
      guarded('handling an event', () => {
        throw new Error('boom');
      });
    guarded('polling', () => {
      throw new Error('boom');
    });
    expect(warn.mock.calls).toEqual([['handling an event failed: boom'], ['polling failed: boom']]);
  });

  it('warns of ten problems at most', () => {
    const warn = vi.fn();
    const guarded = createGuard(warn);
    for (let i = 0; i < 20; i++)
      guarded('step', () => {
        throw new Error(`problem ${i}`);
      });
    expect(warn).toHaveBeenCalledTimes(10);
  });
});

import { describe, expect, it, vi } from 'vitest';
import { forgetClosedTab, type TabKeepers } from './closed-tab';

function keepers(fail: 'run' | 'scope' | null = null) {
  const forget = vi.fn();
  const stored = (name: string) => vi.fn(async () => {
    if (fail === name) throw new Error('storage refused');
  });
  const parts = {
    signals: { forget },
    messages: { forget },
    failures: { forget },
    guard: { forget },
    run: { forget: stored('run') },
    scope: { forget: stored('scope') },
    frames: { forgetTab: forget },
    ring: { forgetTab: forget },
  } satisfies TabKeepers;
  return { parts, forget };
}

describe('forgetClosedTab', () => {
  it('has every part forget the tab', () => {
    const { parts, forget } = keepers();
    forgetClosedTab(parts, 7, vi.fn());
    expect(forget.mock.calls).toEqual(Array.from({ length: 6 }, () => [7]));
    expect(parts.run.forget).toHaveBeenCalledWith(7);
    expect(parts.scope.forget).toHaveBeenCalledWith(7);
  });

  it.each([
    { fail: 'run' as const, message: '[afr] page run of closed tab 7 not forgotten: Error: storage refused' },
    { fail: 'scope' as const, message: '[afr] scope of closed tab 7 not forgotten: Error: storage refused' },
  ])('logs a storage failure of the $fail, and forgets the rest', async ({ fail, message }) => {
    const { parts, forget } = keepers(fail);
    const log = vi.fn();
    forgetClosedTab(parts, 7, log);
    await vi.waitFor(() => expect(log).toHaveBeenCalledWith(message));
    expect(forget).toHaveBeenCalledTimes(6);
  });
});

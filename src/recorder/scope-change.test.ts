import { describe, expect, it, vi } from 'vitest';
import { scopeChanged } from './scope-change';

describe('scopeChanged', () => {
  it.each([
    { recorded: true, watched: [[7]], unwatched: [], left: [] },
    { recorded: false, watched: [], unwatched: [[7]], left: [[7]] },
  ])('recorded $recorded: the session opened or closed, the capture left, the state told', ({ recorded, watched, unwatched, left }) => {
    const ports = { stateChanged: vi.fn(), watchTab: vi.fn(), unwatchTab: vi.fn() };
    const frames = { leaveTab: vi.fn() };
    scopeChanged(ports, frames, 7, recorded);
    expect(ports.stateChanged).toHaveBeenCalledTimes(1);
    expect(ports.watchTab.mock.calls).toEqual(watched);
    expect(ports.unwatchTab.mock.calls).toEqual(unwatched);
    expect(frames.leaveTab.mock.calls).toEqual(left);
  });
});

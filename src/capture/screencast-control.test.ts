import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS, type Settings } from '../../schemas/settings';
import { ScreencastControl } from './screencast-control';

const TAB = 4;
const OPTIONS = { quality: 70, maxWidth: 1280, maxHeight: 720, fps: 8 };

/** Screencast control over a fake debugger session with TAB attached; `held`: tabs held for a burst. */
function control(settings: Partial<Settings> = {}, held: number[] = []) {
  const screencast = { attachedTabs: vi.fn(() => [TAB]), start: vi.fn(async () => {}), stop: vi.fn(async () => {}) };
  const hold = { isHeld: (tabId: number) => held.includes(tabId), heldTabs: () => [...held], end: vi.fn((tabId: number) => void held.splice(held.indexOf(tabId), 1)) };
  const state = { settings: { ...DEFAULT_SETTINGS, ...settings }, capturing: true };
  const context = { screencast, settings: () => state.settings, capturing: () => state.capturing, log: vi.fn(), hold, started: vi.fn() };
  return { cast: new ScreencastControl(context), state, ...context };
}

describe('ScreencastControl', () => {
  it('starts the screencast of every attached tab with the frame options, once', async () => {
    const { cast, screencast, started } = control();
    await cast.sync();
    await cast.sync();
    expect(screencast.start).toHaveBeenCalledExactlyOnceWith(TAB, OPTIONS);
    expect(started).toHaveBeenCalledExactlyOnceWith(TAB);
    expect(cast.isCasting(TAB)).toBe(true);
    expect(cast.any).toBe(true);
  });

  it('restarts every running screencast when the frame options change', async () => {
    const { cast, screencast, state } = control();
    await cast.sync();
    state.settings = { ...state.settings, fps: 4 };
    await cast.sync();
    expect(screencast.start).toHaveBeenLastCalledWith(TAB, { ...OPTIONS, fps: 4 });
    expect(screencast.start).toHaveBeenCalledTimes(2);
  });

  it('restarts a screencast left running ("already active"): stopped, then started', async () => {
    const { cast, screencast, started, log } = control();
    screencast.start.mockRejectedValueOnce(new Error('Screencast is already active'));
    await cast.sync();
    expect(screencast.stop).toHaveBeenCalledExactlyOnceWith(TAB);
    expect(screencast.start).toHaveBeenCalledTimes(2);
    expect(started).toHaveBeenCalledTimes(1);
    expect(cast.isCasting(TAB)).toBe(true);
    expect(log).not.toHaveBeenCalled();
  });

  it('gives a tab whose screencast is refused back to captureVisibleTab, logged', async () => {
    const { cast, screencast, started, log } = control();
    screencast.start.mockRejectedValueOnce(new Error('Page.startScreencast failed'));
    await cast.sync();
    expect(cast.isCasting(TAB)).toBe(false);
    expect(started).not.toHaveBeenCalled();
    expect(log).toHaveBeenCalledExactlyOnceWith(`[afr] screencast of tab ${TAB} refused: Error: Page.startScreencast failed; using captureVisibleTab`);
  });

  it.each([
    { label: 'captureSource visibleTab', change: (s: ReturnType<typeof control>['state']) => void (s.settings = { ...s.settings, captureSource: 'visibleTab' }) },
    { label: 'recording paused', change: (s: ReturnType<typeof control>['state']) => void (s.capturing = false) },
  ])('stops every screencast when it is not wanted: $label', async ({ change }) => {
    const { cast, screencast, state } = control();
    await cast.sync();
    change(state);
    expect(cast.wanted).toBe(false);
    await cast.sync();
    expect(screencast.stop).toHaveBeenCalledExactlyOnceWith(TAB);
    expect(cast.isCasting(TAB)).toBe(false);
  });

  it('is not wanted without a debugger session', () => {
    const { state } = control();
    const cast = new ScreencastControl({ screencast: undefined, settings: () => state.settings, capturing: () => true, log: vi.fn(), hold: { isHeld: () => false, heldTabs: () => [], end: vi.fn() }, started: vi.fn() });
    expect(cast.wanted).toBe(false);
  });

  it('leaves a tab held for a burst to start when the burst ends, in auto mode', async () => {
    const { cast, screencast, hold } = control({}, [TAB]);
    await cast.sync();
    expect(screencast.start).not.toHaveBeenCalled();
    expect(hold.end).not.toHaveBeenCalled();
  });

  it('ends the burst of a held tab and starts its screencast at once when auto is off', async () => {
    const { cast, screencast, hold } = control({ captureSource: 'screencast' }, [TAB]);
    await cast.sync();
    expect(hold.end).toHaveBeenCalledExactlyOnceWith(TAB);
    expect(screencast.start).toHaveBeenCalledExactlyOnceWith(TAB, OPTIONS);
  });

  it('ends every burst when no screencast is wanted', async () => {
    const { cast, hold, state } = control({}, [TAB, 9]);
    state.capturing = false;
    await cast.sync();
    expect(hold.end.mock.calls).toEqual([[TAB], [9]]);
  });

  it('stops a screencast for a burst (the tab still casts), logging a stop that failed', async () => {
    const { cast, screencast, log } = control();
    await cast.sync();
    screencast.stop.mockRejectedValueOnce(new Error('detached'));
    cast.stopForBurst(TAB);
    await vi.waitFor(() => expect(log).toHaveBeenCalledWith(`[afr] screencast of tab ${TAB} did not stop: Error: detached`));
    expect(cast.isCasting(TAB)).toBe(true);
  });

  it('forgets a tab: it casts no more, and the next sync starts it again', async () => {
    const { cast, screencast } = control();
    await cast.sync();
    cast.forget(TAB);
    expect(cast.isCasting(TAB)).toBe(false);
    await cast.sync();
    expect(screencast.start).toHaveBeenCalledTimes(2);
  });
});

import { describe, expect, it, vi } from 'vitest';
import { MemoryKeyValueStore, SettingsStore } from '../settings/settings-store';
import { RecordingMode } from './recording-mode';

describe('RecordingMode', () => {
  it('records the timeline from capture level metadata up, and not while paused', async () => {
    const settings = new SettingsStore(new MemoryKeyValueStore(), vi.fn());
    await settings.load();
    const mode = new RecordingMode(settings, new MemoryKeyValueStore());
    expect(mode.recordsTimeline).toBe(true);
    await settings.update({ captureLevel: 'off' });
    expect(mode.recordsTimeline).toBe(false);
    await settings.update({ captureLevel: 'metadata' });
    await mode.setPaused(true);
    expect([mode.paused, mode.recordsTimeline]).toEqual([true, false]);
  });

  it('keeps the pause across restarts of the worker (session storage)', async () => {
    const settings = new SettingsStore(new MemoryKeyValueStore(), vi.fn());
    const session = new MemoryKeyValueStore();
    await new RecordingMode(settings, session).setPaused(true);
    const restarted = new RecordingMode(settings, session);
    expect(restarted.paused).toBe(false);
    await restarted.loadPause();
    expect(restarted.paused).toBe(true);
  });
});

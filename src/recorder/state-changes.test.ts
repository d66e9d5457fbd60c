import { describe, expect, it, vi } from 'vitest';
import { MemoryBundleStore } from '../bundle/memory-bundle-store';
import { setupRecorder } from '../../test/fakes/recorder';

describe('Recorder: what the toolbar badge is told', () => {
  it('tells of the pause and of settings changes', async () => {
    const stateChanged = vi.fn();
    const { recorder, afr } = setupRecorder({ stateChanged });
    await recorder.start();
    recorder.loop.stop();
    const afterStart = stateChanged.mock.calls.length;
    expect(afterStart).toBeGreaterThan(0);
    await recorder.setPaused(true);
    expect(stateChanged.mock.calls.length).toBeGreaterThan(afterStart);
    expect((await afr.status()).paused).toBe(true);
    const afterPause = stateChanged.mock.calls.length;
    await afr.configure({ captureLevel: 'off' });
    expect(stateChanged.mock.calls.length).toBeGreaterThan(afterPause);
    recorder.loop.stop();
  });

  it('tells when a bundle begins and ends, and why one could not be written until the next one is', async () => {
    const stateChanged = vi.fn();
    const bundles = new MemoryBundleStore();
    const save = vi.spyOn(bundles, 'save').mockRejectedValueOnce(new Error('UnknownError: the disk went away'));
    let packagingSeen: boolean | null = null;
    const { recorder, afr } = setupRecorder({
      bundles,
      stateChanged,
      sleep: async () => {
        packagingSeen = (await afr.status()).packaging;
      },
    });
    await recorder.start();
    recorder.loop.stop();
    stateChanged.mockClear();
    await expect(afr.fail({ tabId: 7, reason: 'first' })).rejects.toThrow(/disk went away/);
    expect(packagingSeen).toBe(true);
    // One call as the bundle began, one as it ended.
    expect(stateChanged).toHaveBeenCalledTimes(2);
    const failed = await afr.status();
    expect(failed.packaging).toBe(false);
    expect(failed.lastBundleError).toBe('UnknownError: the disk went away');
    await afr.configure({ failureCooldownMs: 0 });
    expect(await afr.fail({ tabId: 7, reason: 'second' })).toBeTruthy();
    expect(save).toHaveBeenCalledTimes(2);
    expect((await afr.status()).lastBundleError).toBeNull();
    recorder.loop.stop();
  });
});

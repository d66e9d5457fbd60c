import { describe, expect, it, vi } from 'vitest';
import { setupRecorder } from '../../test/fakes/recorder';
import { handleUiCall } from './operator-api';

describe('createOperatorApi', () => {
  it('pauses recording (steps, frames) until resumed, and says so in the status it answers', async () => {
    const { recorder, operator, ports } = setupRecorder();
    await recorder.start();
    const paused = await operator.pause();
    expect(paused).toMatchObject({ paused: true, recording: false });
    expect(await ports.sessionStore.get('paused')).toBe(true);
    await recorder.handleMessage({ type: 'agent/command', ts: 0, url: null, command: { kind: 'mark', label: 'x' } }, { tabId: 7, frameId: 0 });
    expect(ports.stepLog.size).toBe(0);
    expect(await operator.resume()).toMatchObject({ paused: false, recording: true });
    recorder.loop.stop();
  });

  it('saves a bundle on request (reason manual) whatever the persist mode and the cooldown', async () => {
    const { recorder, operator, ports, clock } = setupRecorder();
    await recorder.start();
    await operator.configure({ persistMode: 'manual' });
    const first = await operator.saveBundle({ tabId: 7 });
    clock.t += 5;
    const second = await operator.saveBundle();
    expect((await ports.bundles.list()).map((b) => [b.id, b.reason, b.label, b.tabId])).toEqual([
      [second, 'manual', 'saved by the operator', 7],
      [first, 'manual', 'saved by the operator', 7],
    ]);
    await expect(operator.saveBundle({ tabId: 'x' })).rejects.toThrow(/^saveBundle: tabId/);
    recorder.loop.stop();
  });

  it('saves a stored bundle to the downloads and notes the download; checks the id first', async () => {
    const download = vi.fn(async () => 99);
    const { recorder, operator, afr } = setupRecorder({ download });
    await recorder.start();
    await operator.configure({ autoDownload: false });
    const id = await afr.fail({ tabId: 7, reason: 'agent_failure' });
    expect(download).not.toHaveBeenCalled();
    expect(await operator.downloadBundle(id)).toBe(99);
    expect((await operator.listBundles())[0]).toMatchObject({ id, downloadId: 99 });
    await expect(operator.downloadBundle('../x')).rejects.toThrow(/not a bundle id/);
    await expect(operator.downloadBundle('afr-20261122T120000Z-aaaaaa')).rejects.toThrow('no bundle with id afr-20261122T120000Z-aaaaaa');
    recorder.loop.stop();
  });

  it('previews redaction rules on a tab, once they validate', async () => {
    const previewRedaction = vi.fn(async () => ({ matches: [], total: 0, problems: [] }));
    const { recorder, operator } = setupRecorder({ previewRedaction });
    await recorder.start();
    const rules = { selectors: ['.secret'], fieldNamePatterns: [], textPatterns: [] };
    await expect(operator.previewRedaction({ tabId: 7, rules })).resolves.toEqual({ matches: [], total: 0, problems: [] });
    expect(previewRedaction).toHaveBeenCalledWith(7, rules);
    await expect(operator.previewRedaction({ rules })).rejects.toThrow(/^previewRedaction: tabId/);
    recorder.loop.stop();
  });
});

describe('handleUiCall', () => {
  it('answers a call with its value, and a failure with its message, never a throw', async () => {
    const { recorder, operator } = setupRecorder();
    const ready = () => recorder.start();
    expect(await handleUiCall(operator, ready, { type: 'ui/api', method: 'getSettings', args: [] })).toMatchObject({ ok: true, value: { persistMode: 'on_fail' } });
    expect(await handleUiCall(operator, ready, { type: 'ui/api', method: 'deleteBundle', args: ['nope'] })).toEqual({ ok: false, error: 'not a bundle id: "nope"' });
    expect(await handleUiCall(operator, async () => Promise.reject(new Error('storage refused')), { type: 'ui/api', method: 'status', args: [] })).toEqual({ ok: false, error: 'storage refused' });
    recorder.loop.stop();
  });
});

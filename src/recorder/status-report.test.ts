import { describe, expect, it, vi } from 'vitest';
import { setupRecorder } from '../../test/fakes/recorder';

describe('statusReport', () => {
  it('reports status: recording, frames, bytes and the run', async () => {
    const { recorder, afr } = setupRecorder();
    await recorder.start();
    await vi.waitFor(async () => expect((await afr.status()).frames).toBeGreaterThan(0));
    const status = await afr.status();
    expect(status).toMatchObject({ recording: true, runId: 'run-test', version: '0.1.0', tabs: [{ tabId: 7, windowId: 1, debugger: false }] });
    expect(status.bytes).toBeGreaterThan(0);
    recorder.loop.stop();
  });

  it('says when a bundle is being made, and when recording is paused', async () => {
    let finishTail: () => void = () => undefined;
    const tail = new Promise<void>((resolve) => (finishTail = resolve));
    const { recorder, afr, operator } = setupRecorder({ sleep: () => tail });
    await recorder.start();
    await afr.configure({ postFailureSeconds: 1 });
    const bundled = afr.fail({ tabId: 7, reason: 'agent_failure' });
    await vi.waitFor(async () => expect((await afr.status()).packaging).toBe(true));
    finishTail();
    await bundled;
    expect(await afr.status()).toMatchObject({ packaging: false, bundles: 1, paused: false });
    await operator.pause();
    expect((await afr.status()).paused).toBe(true);
    recorder.loop.stop();
  });
});

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
});

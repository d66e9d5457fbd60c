import { describe, expect, it, vi } from 'vitest';
import { setupRecorder } from '../../test/fakes/recorder';
import { RecorderInputError } from './input-checks';

const serverError = { tabId: 7, url: 'https://shop.test/checkout', method: 'POST', type: 'main_frame', statusCode: 500, error: null };

async function started() {
  const setup = setupRecorder();
  await setup.recorder.start();
  setup.recorder.loop.stop();
  return setup;
}

describe('afr.waitForBundle', () => {
  it('resolves with the bundle the recorder made on its own (an HTTP 500), once it is stored and downloaded', async () => {
    const { recorder, afr, clock } = await started();
    const waiting = afr.waitForBundle({ since: clock.t, timeoutMs: 10_000 });
    await recorder.handleWebRequest(serverError);
    const bundle = await waiting;
    expect(bundle).toMatchObject({ reason: 'http_5xx', trigger: 'signal', tabId: 7, downloadId: 1 });
    expect(recorder.bundleWaiters.size).toBe(0);
  });

  it('returns at once the oldest matching bundle stored after `since`, and skips other reasons and triggers', async () => {
    const { recorder, afr, clock } = await started();
    const before = await afr.fail({ tabId: 7, reason: 'agent_failure', label: 'before' });
    clock.t += 1_000;
    const since = new Date(clock.t).toISOString();
    const first = await afr.fail({ tabId: 7, reason: 'agent_failure', label: 'first' });
    clock.t += 1_000;
    await afr.fail({ tabId: 7, reason: 'agent_failure', label: 'second' });
    // Past the cooldown the agent's bundles started for the tab.
    clock.t += 120_000;
    await recorder.handleWebRequest(serverError);
    await vi.waitFor(async () => expect(await afr.listBundles()).toHaveLength(4));

    expect(await afr.waitForBundle({ since, timeoutMs: 0 })).toMatchObject({ id: first, label: 'first' });
    expect(await afr.waitForBundle({ since: before, timeoutMs: 0 })).toMatchObject({ id: first });
    expect(await afr.waitForBundle({ since, reason: 'http_5xx', timeoutMs: 0 })).toMatchObject({ trigger: 'signal' });
    expect(await afr.waitForBundle({ since, trigger: 'operator', timeoutMs: 0 })).toBeNull();
  });

  it('given a bundle id, waits for the next bundle after it', async () => {
    const { afr, clock } = await started();
    const last = await afr.fail({ tabId: 7, reason: 'agent_failure' });
    const waiting = afr.waitForBundle({ since: last, timeoutMs: 10_000 });
    clock.t += 2_000;
    const next = await afr.fail({ tabId: 7, reason: 'agent_failure', label: 'next' });
    expect((await waiting)?.id).toBe(next);
  });

  it('resolves to null when no matching bundle came in time, and a bundle of another reason does not end the wait', async () => {
    const { recorder, afr, clock } = await started();
    const waiting = afr.waitForBundle({ since: clock.t, reason: 'exception', timeoutMs: 50 });
    await recorder.handleWebRequest(serverError);
    expect(await waiting).toBeNull();
    expect(recorder.bundleWaiters.size).toBe(0);
  });

  it.each([
    [{ timeoutMs: 60_001 }, /timeoutMs/],
    [{ since: 'yesterday', timeoutMs: 0 }, /since: "yesterday" is neither a time nor a bundle id/],
    [{ since: 'afr-20260101T000000Z-abcdef', timeoutMs: 0 }, /since: no stored bundle with id afr-20260101T000000Z-abcdef/],
    [{ since: 8.64e15 + 1, timeoutMs: 0 }, /is neither a time/],
    [{ timeoutMs: 10, extra: true }, /extra/],
    [undefined, /afr\.waitForBundle/],
  ])('rejects %j with a RecorderInputError', async (input, message) => {
    const { afr } = await started();
    const call = (afr.waitForBundle as (input: unknown) => Promise<unknown>)(input);
    await expect(call).rejects.toBeInstanceOf(RecorderInputError);
    await expect(call).rejects.toThrow(message);
  });
});

import { describe, expect, it, vi } from 'vitest';
import { screencastPort, setupRecorder, T0 } from '../../test/fakes/recorder';
import { MemoryKeyValueStore, SettingsStore } from '../settings/settings-store';

describe('AgentCommands (through afr)', () => {
  it('a run started without a tab under scope agent binds the active tab and its step carries that tab’s page', async () => {
    const settingsStore = new SettingsStore(new MemoryKeyValueStore(), () => undefined);
    await settingsStore.load();
    await settingsStore.update({ scope: 'agent' });
    const urls = new Map([[7, 'https://shop.test/start']]);
    const { recorder, afr, ports } = setupRecorder({ settingsStore, activeTab: async () => 7, currentTabUrl: (tabId) => urls.get(tabId) ?? null });
    await recorder.start();
    await afr.runStart({ agent: 'cli-agent' });
    expect((await ports.stepLog.between(7, 0, T0 + 1)).find((s) => s.kind === 'run')).toMatchObject({ tab_id: 7, url: 'https://shop.test/start' });
    // A tab with no page yet: the run is bound all the same, its step without a URL.
    urls.clear();
    await afr.runEnd({});
    await afr.runStart({ agent: 'cli-agent' });
    expect((await ports.stepLog.between(7, 0, T0 + 1)).filter((s) => s.action === 'run start').at(-1)).toMatchObject({ tab_id: 7, url: null });
    expect((await afr.status()).scope.agentTabs).toEqual([7]);
    recorder.loop.stop();
  });

  it("names the page's DOM timeline checkpoint on a step, an assertion and a mark, and asks for none below capture level trace", async () => {
    const timelineCheckpoint = vi.fn(async (_tabId: number, label: string) => ({ document_id: 'doc-1', seq: label.length }));
    const { recorder, afr, ports } = setupRecorder({ timelineCheckpoint });
    await recorder.start();
    await afr.step({ tabId: 7, action: 'open the cart', outcome: 'ok' });
    await afr.mark({ tabId: 7, label: 'cart reached' });
    await afr.assert({ tabId: 7, label: 'two items', passed: true });
    const steps = await ports.stepLog.between(7, 0, T0 + 1);
    expect(steps.map((s) => s.checkpoint)).toEqual([
      { document_id: 'doc-1', seq: 'step open the cart'.length },
      { document_id: 'doc-1', seq: 'mark cart reached'.length },
      { document_id: 'doc-1', seq: 'assert two items'.length },
    ]);
    expect(timelineCheckpoint).toHaveBeenCalledWith(7, 'step open the cart');
    await afr.configure({ captureLevel: 'metadata' });
    await afr.step({ tabId: 7, action: 'pay', outcome: 'ok' });
    expect(timelineCheckpoint).toHaveBeenCalledTimes(3);
    expect((await ports.stepLog.between(7, 0, T0 + 1)).at(-1)?.checkpoint).toBeUndefined();
    recorder.loop.stop();
  });

  it("a page's step keeps the checkpoint its top frame took as it posted it (the page at that moment), not one asked for later", async () => {
    const timelineCheckpoint = vi.fn(async () => ({ document_id: 'doc-1', seq: 99 }));
    const { recorder, ports } = setupRecorder({ timelineCheckpoint });
    await recorder.start();
    const posted = (frameId: number, action: string) =>
      recorder.handleMessage(
        { type: 'agent/command', ts: T0, url: 'https://shop.test/', command: { kind: 'step', action }, checkpoint: { document_id: 'doc-1', seq: 3 } },
        { tabId: 7, frameId },
      );
    await posted(0, 'open the shop');
    expect((await ports.stepLog.between(7, 0, T0 + 1)).find((s) => s.action === 'open the shop')?.checkpoint).toEqual({ document_id: 'doc-1', seq: 3 });
    expect(timelineCheckpoint).not.toHaveBeenCalled();
    // A frame inside the page speaks for no page: its step names none of its own.
    await posted(2, 'inner frame step');
    expect((await ports.stepLog.between(7, 0, T0 + 1)).find((s) => s.action === 'inner frame step')?.checkpoint).not.toEqual({ document_id: 'doc-1', seq: 3 });
    recorder.loop.stop();
  });

  it('records the step all the same when the page does not answer the checkpoint', async () => {
    const { recorder, afr, ports } = setupRecorder({ timelineCheckpoint: async () => Promise.reject(new Error('no page')) });
    await recorder.start();
    await afr.step({ tabId: 7, action: 'open the cart', outcome: 'ok' });
    expect((await ports.stepLog.between(7, 0, T0 + 1))[0]).toMatchObject({ action: 'open the cart' });
    recorder.loop.stop();
  });

  it('a failed assertion bundles with persistMode on_fail, and resolves to the bundle id', async () => {
    const { recorder, afr, ports } = setupRecorder();
    await recorder.start();
    expect(await afr.assert({ tabId: 7, label: 'cart shows 2 items', passed: true })).toBeNull();
    const id = await afr.assert({ tabId: 7, label: 'total is $108', passed: false, expected: '$108', actual: '$0' });
    expect(id).toMatch(/^afr-/);
    expect((await ports.bundles.list())[0]).toMatchObject({ id, reason: 'assertion_failed', label: 'total is $108' });
    const asserts = (await ports.stepLog.between(7, 0, T0 + 1)).filter((s) => s.kind === 'assert');
    expect(asserts.map((s) => [s.outcome, s.detail?.passed])).toEqual([['ok', true], ['fail', false]]);
    recorder.loop.stop();
  });

  it('persistMode always bundles a passing run at runEnd with the run’s agent and task', async () => {
    const { recorder, afr, ports } = setupRecorder();
    await recorder.start();
    await afr.configure({ persistMode: 'always' });
    const runId = await afr.runStart({ tabId: 7, runId: 'nightly-42', agent: 'shop-bot', agentVersion: '2.1', task: 'buy shoes' });
    expect(runId).toBe('nightly-42');
    expect((await afr.status()).run).toMatchObject({ active: true, agent: 'shop-bot', task: 'buy shoes' });
    await afr.mark({ tabId: 7, label: 'cart reached' });
    const id = await afr.runEnd({ tabId: 7, outcome: 'passed' });
    expect((await ports.bundles.list())[0]).toMatchObject({ id, reason: 'run_passed' });
    expect((await afr.status()).run.active).toBe(false);
    recorder.loop.stop();
  });

  it('persistMode manual records failures without bundling; afr.fail still bundles', async () => {
    const { recorder, afr, ports } = setupRecorder();
    await recorder.start();
    await afr.configure({ persistMode: 'manual' });
    await recorder.handleCdpEvent(7, 'Runtime.exceptionThrown', { exceptionDetails: { text: 'Uncaught', exception: { description: 'Error: boom' } } }, () => null);
    expect(await afr.assert({ tabId: 7, label: 'x', passed: false })).toBeNull();
    expect(await ports.bundles.list()).toHaveLength(0);
    await afr.fail({ tabId: 7, reason: 'operator' });
    expect(await ports.bundles.list()).toHaveLength(1);
    recorder.loop.stop();
  });

  it('masks secrets an agent puts into its own steps', async () => {
    const { recorder, afr, ports } = setupRecorder();
    await recorder.start();
    await afr.step({ tabId: 7, action: 'type jane.doe@example.com into the email field', label: 'card 4111 1111 1111 1111' });
    expect(JSON.stringify(await ports.stepLog.between(7, 0, T0 + 1))).not.toMatch(/jane\.doe@example\.com|4111 1111 1111 1111/);
    recorder.loop.stop();
  });

  it("the agent's own steps count as actions, whatever captureOnAction says", async () => {
    const screencast = screencastPort();
    const { recorder, afr, clock, attached } = setupRecorder({ screencast });
    attached.add(7);
    await recorder.start();
    await afr.configure({ captureOnAction: false });
    // A visible tab (the capture loop has seen it): held, captureVisibleTab goes on meanwhile.
    await vi.waitFor(async () => expect((await afr.status()).tabs).toHaveLength(1));
    for (let i = 0; i < 3; i++) {
      await afr.step({ action: `fill field ${i}`, tabId: 7 });
      clock.t += 120;
    }
    recorder.loop.stop();
    expect(screencast.stop).toHaveBeenCalledTimes(1);
    expect(screencast.screenshot).not.toHaveBeenCalled();
  });
});

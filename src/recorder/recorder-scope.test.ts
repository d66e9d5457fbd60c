import JSZip from 'jszip';
import { describe, expect, it, vi } from 'vitest';
import type { Capturer } from '../capture/ports';
import type { MemoryBundleStore } from '../bundle/memory-bundle-store';
import type { Settings } from '../../schemas/settings';
import { MemoryKeyValueStore, SettingsStore } from '../settings/settings-store';
import { cdpException, origin, screencastPort, setupRecorder, stepMessage, T0 } from '../../test/fakes/recorder';

// The recording scope, through the recorder as the service worker wires it: outside it nothing is
// captured, stored or bundled, and the debugger is neither attached nor kept.

async function diagnosticsOf(bundles: MemoryBundleStore, id: string): Promise<Record<string, unknown>> {
  const zip = await JSZip.loadAsync((await bundles.read(id))!);
  return JSON.parse(await zip.file('diagnostics.json')!.async('string')) as Record<string, unknown>;
}

/** A settings store holding `patch` already, as after a worker restart. */
async function storedSettings(patch: Partial<Settings>): Promise<SettingsStore> {
  const store = new SettingsStore(new MemoryKeyValueStore(), () => undefined);
  await store.load();
  await store.update(patch);
  return store;
}

/** A capturer whose calls are counted, with tab 7 the visible tab. */
function countingCapturer() {
  const capture = vi.fn(async () => ({ jpeg: new Uint8Array([0xff, 0xd8, 1]), width: 1280, height: 720 }));
  const capturer: Capturer = { listTargets: async () => [{ tabId: 7, windowId: 1, url: 'https://shop.test/cart' }], capture };
  return { capturer, capture };
}

describe('Recorder: scope agent', () => {
  it('records nothing of a tab without the agent’s run: no capture, screencast, steps, signals, page commands or bundle', async () => {
    const screencast = screencastPort();
    const { capturer, capture } = countingCapturer();
    const unwatchTab = vi.fn();
    const settingsStore = await storedSettings({ scope: 'agent' });
    const { recorder, afr, ports, attached } = setupRecorder({ screencast, capturer, unwatchTab, settingsStore });
    attached.add(7);
    await recorder.start();
    recorder.handleTabSeen(7, 'https://shop.test/cart');
    await recorder.handleMessage(stepMessage(), origin);
    await recorder.handleMessage({ type: 'agent/command', ts: T0, url: 'https://shop.test/cart', command: { kind: 'fail', reason: 'page_says_so' } }, origin);
    await recorder.handleCdpEvent(7, 'Runtime.exceptionThrown', cdpException('Error: boom'), () => null);
    await recorder.handleWebRequest({ tabId: 7, url: 'https://shop.test/api', method: 'GET', type: 'xmlhttprequest', statusCode: 500, error: null });
    // The capture loop has listed the visible tab (tab 7) and left it alone.
    await vi.waitFor(async () => expect((await afr.status()).tabs.map((t) => [t.tabId, t.recorded])).toEqual([[7, false]]));
    expect(capture).not.toHaveBeenCalled();
    expect(screencast.start).not.toHaveBeenCalled();
    expect(ports.watchTab).not.toHaveBeenCalled();
    expect(ports.stepLog.size).toBe(0);
    expect(await ports.bundles.list()).toEqual([]);
    await expect(afr.fail({ tabId: 7, reason: 'agent_failure' })).rejects.toThrow(/not bundled/);
    expect((await afr.status()).scope).toEqual({ mode: 'agent', origins: [], recordedTabs: [], agentTabs: [], chosenTabs: [] });
    recorder.loop.stop();
  });

  it('records the tab of the agent’s run from its runStart, and lets it go (debugger detached) at its runEnd', async () => {
    const screencast = screencastPort();
    const { capturer } = countingCapturer();
    const unwatchTab = vi.fn();
    const { recorder, afr, ports, attached } = setupRecorder({ screencast, capturer, unwatchTab });
    attached.add(7);
    await recorder.start();
    await afr.configure({ scope: 'agent' });
    recorder.handleTabSeen(7, 'https://shop.test/cart');
    await afr.runStart({ tabId: 7, agent: 'shop-bot' });
    expect(ports.watchTab).toHaveBeenCalledWith(7);
    // The debugger session it asked for is ready: the screencast starts.
    await recorder.handleDebuggerAttached(7);
    expect(screencast.start).toHaveBeenCalledWith(7, expect.anything());
    await recorder.handleMessage(stepMessage({ action: 'type in the agent tab' }), origin);
    expect((await ports.stepLog.between(7, 0, T0 + 1)).map((s) => s.action)).toContain('type in the agent tab');
    const id = await afr.fail({ tabId: 7, reason: 'agent_failure' });
    expect((await ports.bundles.list()).map((b) => b.id)).toEqual([id]);
    expect((await afr.status()).scope.recordedTabs).toEqual([7]);
    await afr.runEnd({ outcome: 'failed' });
    expect(unwatchTab).toHaveBeenCalledWith(7);
    expect((await afr.status()).scope.recordedTabs).toEqual([]);
    recorder.loop.stop();
  });

  it('records a tab created while the run is active, and one opened from an agent tab', async () => {
    const { recorder, afr } = setupRecorder();
    await recorder.start();
    await afr.configure({ scope: 'agent' });
    await recorder.handleTabCreated(20, null, null);
    await afr.runStart({ tabId: 7 });
    await recorder.handleTabCreated(21, null, 'about:blank');
    await recorder.handleTabCreated(22, 21, null);
    expect((await afr.status()).scope.agentTabs).toEqual([7, 21, 22]);
    recorder.loop.stop();
  });

  it('closes the debugger of a session that attached after its tab left the scope', async () => {
    const unwatchTab = vi.fn();
    const { recorder, afr } = setupRecorder({ unwatchTab });
    await recorder.start();
    await afr.configure({ scope: 'agent' });
    await recorder.handleDebuggerAttached(7);
    expect(unwatchTab).toHaveBeenCalledWith(7);
    recorder.loop.stop();
  });
});

describe('Recorder: scope chosen', () => {
  it('records the tabs the operator chose and the allow-listed origins', async () => {
    const { recorder, afr, operator, ports } = setupRecorder();
    await recorder.start();
    await afr.configure({ scope: 'chosen', scopeOrigins: ['*.shop.test'] });
    recorder.handleTabSeen(7, 'https://mail.test/inbox');
    recorder.handleTabSeen(8, 'https://www.shop.test/cart');
    await recorder.handleMessage(stepMessage({ action: 'mail' }), origin);
    await recorder.handleMessage(stepMessage({ action: 'shop' }), { tabId: 8, frameId: 0 });
    expect((await ports.stepLog.inWindow(0, T0 + 1)).map((s) => [s.tab_id, s.action])).toEqual([[8, 'shop']]);
    const status = await operator.chooseTab({ tabId: 7, chosen: true });
    expect(status.scope).toMatchObject({ mode: 'chosen', origins: ['*.shop.test'], recordedTabs: [7, 8], chosenTabs: [7] });
    expect(status.tabs.find((t) => t.tabId === 7)?.recorded ?? true).toBe(true);
    await recorder.handleMessage(stepMessage({ action: 'mail, chosen' }), origin);
    expect((await ports.stepLog.between(7, 0, T0 + 1)).map((s) => s.action)).toEqual(['mail, chosen']);
    await expect(operator.chooseTab({ tabId: 'seven', chosen: true })).rejects.toThrow(/chooseTab: .*tabId/);
    recorder.loop.stop();
  });

  it('rejects a bad allow-list entry with a message naming it, and keeps the settings', async () => {
    const { recorder, afr } = setupRecorder();
    await recorder.start();
    await expect(afr.configure({ scope: 'chosen', scopeOrigins: ['https://shop.test/cart'] })).rejects.toThrow(/scopeOrigins\.0: an origin such as https:\/\/shop\.example/);
    expect((await afr.getSettings()).scope).toBe('all');
    recorder.loop.stop();
  });
});

describe('Recorder: other tabs in diagnostics', () => {
  it('leaves other_tabs out by default; when asked for, lists recorded tabs only', async () => {
    const { recorder, afr, ports } = setupRecorder();
    await recorder.start();
    for (const tabId of [8, 9]) await recorder.handleMessage(stepMessage({ action: `tab ${tabId}` }), { tabId, frameId: 0 });
    const first = await afr.fail({ tabId: 7, reason: 'agent_failure' });
    expect(await diagnosticsOf(ports.bundles as MemoryBundleStore, first)).not.toHaveProperty('other_tabs');

    await afr.configure({ diagnosticsOtherTabs: true, scope: 'chosen', failureCooldownMs: 0 });
    await recorder.chooseTab(7, true);
    await recorder.chooseTab(8, true);
    const second = await afr.fail({ tabId: 7, reason: 'agent_failure' });
    const others = (await diagnosticsOf(ports.bundles as MemoryBundleStore, second)).other_tabs as { tab_id: number }[];
    expect(others.map((t) => t.tab_id)).toEqual([8]);
    recorder.loop.stop();
  });
});

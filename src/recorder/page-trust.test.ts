import JSZip from 'jszip';
import { describe, expect, it, vi } from 'vitest';
import { ManifestSchema } from '../../schemas/manifest';
import { StepsFileSchema } from '../../schemas/steps';
import type { MemoryBundleStore } from '../bundle/memory-bundle-store';
import { origin, setupRecorder, stepMessage, T0 } from '../../test/fakes/recorder';

// The page's trust boundary, through the recorder as the service worker wires it: pages (and frames
// inside them) are untrusted and never speak for the agent.

const command = (command: Record<string, unknown>, ts = T0) => ({ type: 'agent/command', ts, url: 'https://shop.test/cart', command });
const adFrame = { tabId: 7, frameId: 5, frameOrigin: 'https://ads.test' };

/** The page run tab 7 shows in `status()`, once the capture loop has listed the tab. */
async function pageRunOfTab7(afr: { status(): Promise<{ tabs: { tabId: number; pageRunId: string | null }[] }> }): Promise<string | null> {
  let run: string | null | undefined;
  await vi.waitFor(async () => {
    run = (await afr.status()).tabs.find((t) => t.tabId === 7)?.pageRunId;
    expect(run).not.toBeUndefined();
  });
  return run!;
}

async function bundleFile(bundles: MemoryBundleStore, id: string, name: string): Promise<unknown> {
  const zip = await JSZip.loadAsync((await bundles.read(id))!);
  return JSON.parse(await zip.file(name)!.async('string'));
}

describe('page commands: only the top frame speaks for the page', () => {
  it.each([
    ['runStart', { kind: 'runStart', runId: 'ad-run', agent: 'ad' }],
    ['fail', { kind: 'fail', reason: 'ad_says_so' }],
    ['assert', { kind: 'assert', label: 'ad', passed: false }],
    ['step', { kind: 'step', action: 'ad step' }],
  ])('a cross-origin iframe cannot %s', async (_name, cmd) => {
    const { recorder, afr, ports, log } = setupRecorder();
    await recorder.start();
    await recorder.handleMessage(command(cmd), adFrame);
    const status = await afr.status();
    expect(status.runId).toBe('run-test');
    expect(status.run.active).toBe(false);
    expect(status.pageLimits.framesRefused).toBe(1);
    expect(await ports.bundles.list()).toEqual([]);
    expect(ports.stepLog.size).toBe(0);
    expect(log).toHaveBeenCalledWith(expect.stringMatching(/ignored a page command from frame 5 of tab 7 \(https:\/\/ads\.test\)/));
    recorder.loop.stop();
  });

  it('a frame whose origin the operator allowed may, like the top frame', async () => {
    const { recorder, afr, ports } = setupRecorder();
    await recorder.start();
    await afr.configure({ pageCommandFrameOrigins: ['https://agent.test'] });
    await recorder.handleMessage(command({ kind: 'mark', label: 'from the agent frame' }), { tabId: 7, frameId: 3, frameOrigin: 'https://agent.test' });
    await recorder.handleMessage(command({ kind: 'mark', label: 'from an ad' }), adFrame);
    const steps = await ports.stepLog.between(7, 0, T0 + 1);
    expect(steps.map((s) => [s.label, s.frame_id])).toEqual([['from the agent frame', 3]]);
    recorder.loop.stop();
  });

  it('the allow-list takes origins only, as the browser writes them', async () => {
    const { recorder, afr } = setupRecorder();
    await recorder.start();
    for (const bad of ['https://agent.test/', 'https://agent.test/path', 'agent.test', 'https://agent.test:443', 'https://Agent.test']) {
      await expect(afr.configure({ pageCommandFrameOrigins: [bad] })).rejects.toThrow(/pageCommandFrameOrigins/);
    }
    expect((await afr.configure({ pageCommandFrameOrigins: ['http://localhost:8080'] })).pageCommandFrameOrigins).toEqual(['http://localhost:8080']);
    recorder.loop.stop();
  });
});

describe('runs: a page cannot start, end or replace the agent’s', () => {
  it("a page's runStart and runEnd leave the agent's run, and its bundles carry the agent's", async () => {
    const { recorder, afr, ports } = setupRecorder();
    await recorder.start();
    await afr.configure({ failureCooldownMs: 0 });
    await afr.runStart({ tabId: 7, runId: 'agent-run', agent: 'shop-bot' });
    await recorder.handleMessage(command({ kind: 'runStart', runId: 'page-run', agent: 'page' }), origin);
    await recorder.handleMessage(command({ kind: 'runEnd', outcome: 'failed' }), origin);
    const status = await afr.status();
    expect(status).toMatchObject({ runId: 'agent-run', run: { active: true, agent: 'shop-bot' }, pageLimits: { runCommandsRefused: 2 } });
    expect(await pageRunOfTab7(afr)).toBeNull();
    const id = await afr.fail({ tabId: 7, reason: 'x' });
    expect(ManifestSchema.parse(await bundleFile(ports.bundles as MemoryBundleStore, id, 'manifest.json'))).toMatchObject({ run_id: 'agent-run', run: { agent: 'shop-bot' } });
    // Nothing of the refused commands on the timeline.
    expect((await ports.stepLog.between(7, 0, T0 + 1)).filter((s) => s.kind === 'run').map((s) => s.detail?.run_id)).toEqual(['agent-run']);
    recorder.loop.stop();
  });

  it("a page declares a run of its own tab only, while the agent has none; the agent's run supersedes it", async () => {
    const { recorder, afr, ports } = setupRecorder();
    await recorder.start();
    await afr.configure({ failureCooldownMs: 0 });
    await recorder.handleMessage(command({ kind: 'runStart', runId: 'page-run', agent: 'page-harness' }), origin);
    let status = await afr.status();
    // The agent's view is untouched; the tab shows its page's run.
    expect(status).toMatchObject({ runId: 'run-test', run: { active: false, agent: null } });
    expect(await pageRunOfTab7(afr)).toBe('page-run');
    const bundles = ports.bundles as MemoryBundleStore;
    const ofTab = async (tabId: number) => ManifestSchema.parse(await bundleFile(bundles, await afr.fail({ tabId, reason: 'x' }), 'manifest.json')).run_id;
    expect(await ofTab(7)).toBe('page-run');
    expect(await ofTab(8)).toBe('run-test');
    // A page of another tab cannot end it.
    await recorder.handleMessage(command({ kind: 'runEnd' }), { ...origin, tabId: 8 });
    expect(await pageRunOfTab7(afr)).toBe('page-run');
    await afr.runStart({ runId: 'agent-run' });
    status = await afr.status();
    expect(status.runId).toBe('agent-run');
    expect(await pageRunOfTab7(afr)).toBeNull();
    // Ended by the agent, its run leaves no page run behind.
    await afr.runEnd({});
    expect(await pageRunOfTab7(afr)).toBeNull();
    recorder.loop.stop();
  });

  it('runs survive a worker restart, each where it was', async () => {
    const first = setupRecorder();
    await first.recorder.start();
    await first.recorder.handleMessage(command({ kind: 'runStart', runId: 'page-run' }), origin);
    first.recorder.loop.stop();
    const second = setupRecorder({ sessionStore: first.ports.sessionStore });
    await second.recorder.start();
    expect((await second.afr.status()).run.active).toBe(false);
    expect(await pageRunOfTab7(second.afr)).toBe('page-run');
    second.recorder.loop.stop();
  });
});

describe('quotas: all frames of a tab together', () => {
  it("30 frames posting 100 steps each put one tab's quota on the timeline; another tab is untouched", async () => {
    const { recorder, afr, ports } = setupRecorder();
    await recorder.start();
    for (let frame = 0; frame < 30; frame++) {
      for (let i = 0; i < 100; i++) await recorder.handleMessage(stepMessage({ kind: 'click', action: `click ${frame}/${i}`, value: null }), { ...origin, frameId: frame });
    }
    await recorder.handleMessage(stepMessage({ kind: 'click', action: 'click in tab 8', value: null }), { ...origin, tabId: 8 });
    expect((await ports.stepLog.between(7, 0, T0 + 1)).length).toBe(200);
    expect((await ports.stepLog.between(8, 0, T0 + 1)).map((s) => s.action)).toEqual(['click in tab 8']);
    expect((await afr.status()).pageLimits.stepsDropped).toBe(2_800);
    recorder.loop.stop();
  });

  it('synthetic steps are kept as such, to a quota of their own, and the trusted ones still go in', async () => {
    const { recorder, ports } = setupRecorder();
    await recorder.start();
    for (let i = 0; i < 100; i++) await recorder.handleMessage(stepMessage({ kind: 'click', action: 'scripted click', value: null, synthetic: true }), origin);
    await recorder.handleMessage(stepMessage({ kind: 'click', action: 'agent click', value: null }), origin);
    const steps = await ports.stepLog.between(7, 0, T0 + 1);
    expect(steps.filter((s) => s.synthetic).length).toBe(20);
    expect(steps.at(-1)).toMatchObject({ action: 'agent click' });
    expect(steps.at(-1)!.synthetic).toBeUndefined();
    recorder.loop.stop();
  });

  it('page commands over the quota are dropped and counted', async () => {
    const { recorder, afr, ports } = setupRecorder();
    await recorder.start();
    for (let i = 0; i < 150; i++) await recorder.handleMessage(command({ kind: 'mark', label: `m${i}` }), origin);
    expect(ports.stepLog.size).toBe(100);
    expect((await afr.status()).pageLimits.commandsDropped).toBe(50);
    recorder.loop.stop();
  });
});

describe('page-triggered bundles', () => {
  it('have their own quota, whatever the cooldown, and are never downloaded', async () => {
    const { recorder, afr, ports, download, clock } = setupRecorder();
    await recorder.start();
    await afr.configure({ failureCooldownMs: 0, persistMode: 'always' });
    for (let i = 0; i < 4; i++) {
      await recorder.handleMessage(command({ kind: 'fail', reason: 'page_fail' }, clock.t), origin);
      await recorder.handleMessage(command({ kind: 'runStart' }, clock.t), origin);
      await recorder.handleMessage(command({ kind: 'runEnd' }, clock.t), origin);
      clock.t += 2_000;
    }
    const bundles = await ports.bundles.list();
    expect(bundles).toHaveLength(2);
    expect(bundles.every((b) => b.trigger === 'page' && b.downloadId === null)).toBe(true);
    expect(download).not.toHaveBeenCalled();
    expect((await afr.status()).pageLimits.bundlesRefused).toBe(6);
    // The agent's own are not held to it, and are downloaded.
    const id = await afr.fail({ tabId: 7, reason: 'agent_failure' });
    expect((await ports.bundles.list()).find((b) => b.id === id)).toMatchObject({ trigger: 'agent', downloadId: 1 });
    recorder.loop.stop();
  });

  it("a page's runEnd is never explicit: the cooldown applies to it", async () => {
    const { recorder, afr, ports } = setupRecorder();
    await recorder.start();
    await afr.configure({ persistMode: 'always' });
    await recorder.handleMessage(command({ kind: 'fail', reason: 'first' }), origin);
    await recorder.handleMessage(command({ kind: 'runStart' }), origin);
    await recorder.handleMessage(command({ kind: 'runEnd' }), origin);
    expect((await ports.bundles.list()).map((b) => b.reason)).toEqual(['first']);
    recorder.loop.stop();
  });

  it("never push out the bundles the operator and the agent asked for", async () => {
    const { recorder, afr, operator, ports, clock } = setupRecorder();
    await recorder.start();
    await afr.configure({ failureCooldownMs: 0, maxStoredBundles: 2 });
    const saved = await operator.saveBundle({ tabId: 7 });
    clock.t += 1_000;
    const failed = await afr.fail({ tabId: 7, reason: 'agent_failure' });
    for (let i = 0; i < 2; i++) {
      clock.t += 1_000;
      await recorder.handleMessage(command({ kind: 'fail', reason: 'page_fail' }, clock.t), origin);
    }
    expect((await ports.bundles.list()).map((b) => b.id).sort()).toEqual([saved, failed].sort());
    const steps = StepsFileSchema.parse(await bundleFile(ports.bundles as MemoryBundleStore, failed, 'steps.json')).steps;
    expect(steps.some((s) => s.action === 'failure: agent_failure')).toBe(true);
    recorder.loop.stop();
  });
});

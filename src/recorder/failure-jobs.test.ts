import JSZip from 'jszip';
import { describe, expect, it, vi } from 'vitest';
import { StepsFileSchema } from '../../schemas/steps';
import { STEPS_IN_FLIGHT_MS } from '../../schemas/content-port';
import { cdpException, origin, screencastPort, setupRecorder, stepMessage, T0 } from '../../test/fakes/recorder';

describe('FailureJobs (through the Recorder and afr)', () => {
  it('reads the steps for a bundle once those a page may still have been batching are in', async () => {
    let arrive: (() => Promise<void>) | null = null;
    const slept: number[] = [];
    const { recorder, afr, ports, clock } = setupRecorder({
      sleep: async (ms) => {
        slept.push(ms);
        clock.t += ms;
        await arrive?.();
      },
    });
    await recorder.start();
    await afr.configure({ postFailureSeconds: 0 });
    // The click that failed was observed just before the signal; its batch arrives after it.
    arrive = () => recorder.handleMessage({ type: 'step/batch', steps: [stepMessage({ ts: T0 - 5, kind: 'click', action: 'click', value: null })] }, origin);
    const id = await afr.fail({ tabId: 7, reason: 'x' });
    expect(slept).toEqual([STEPS_IN_FLIGHT_MS]);
    const zip = await JSZip.loadAsync((await ports.bundles.read(id!))!);
    const steps = StepsFileSchema.parse(JSON.parse(await zip.file('steps.json')!.async('string'))).steps;
    expect(steps.map((s) => s.action)).toContain('click');
    recorder.loop.stop();
  });

  it('bundles a page fail once per cooldown, counting what it suppressed', async () => {
    const { recorder, ports, clock } = setupRecorder();
    await recorder.start();
    const fail = { type: 'agent/command', ts: T0, url: 'https://shop.test/cart', command: { kind: 'fail', reason: 'assertion_failed', label: 'total' } };
    await recorder.handleMessage(fail, origin);
    await recorder.handleMessage(fail, origin);
    await recorder.handleMessage(fail, origin);
    expect(await ports.bundles.list()).toHaveLength(1);
    clock.t += 11_000;
    await recorder.handleMessage({ ...fail, ts: clock.t }, origin);
    expect(await ports.bundles.list()).toHaveLength(2);
    // Every signal is on the timeline, bundled or not.
    const signals = (await ports.stepLog.between(7, 0, clock.t)).filter((s) => s.kind === 'signal');
    expect(signals).toHaveLength(4);
    recorder.loop.stop();
  });

  it('keeps the window of a crash that waits for the bundle being made, though its tab is closed meanwhile', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    // The first bundle takes long (its clip), and the crash waits for it.
    const encodeClip = vi.fn(async () => {
      await held;
      return { ok: false as const, error: 'slow' };
    });
    let tail = async (_ms: number) => {};
    const { recorder, afr, ports, clock } = setupRecorder({ encodeClip, sleep: (ms) => tail(ms) });
    await recorder.start();
    recorder.loop.stop();
    const meta = (ts: number) => ({ ts, size: 3, tabId: 7, windowId: 1, url: null, width: 4, height: 4 });
    // Each frame a picture of its own: identical ones in a row would be one entry of the bundle.
    let pictures = 0;
    const jpeg = () => new Uint8Array([0xff, 0xd8, ++pictures]);
    await ports.ring.add(meta(clock.t - 14_000), jpeg());
    await ports.ring.add(meta(clock.t - 13_000), jpeg());
    // Frames keep coming during each tail: each one stored evicts what the ring no longer keeps.
    tail = async (ms: number) => {
      clock.t += ms;
      await ports.ring.add(meta(clock.t), jpeg());
    };
    const first = afr.fail({ tabId: 7, reason: 'agent_failure' });
    await vi.waitFor(() => expect(encodeClip).toHaveBeenCalled());
    const crash = recorder.handleCdpEvent(7, 'Inspector.targetCrashed', {}, () => 'https://shop.test/cart');
    recorder.forgetTab(7);
    clock.t += 30_000;
    await ports.ring.add(meta(clock.t), jpeg()); // evicts what is not kept
    release();
    await first;
    await crash;
    const bundles = await ports.bundles.list();
    const crashed = bundles.find((b) => b.reason === 'tab_crashed');
    expect(crashed).toBeDefined();
    const zip = await JSZip.loadAsync((await ports.bundles.read(crashed!.id))!);
    // The two frames from the start of its window are in it.
    const manifest = JSON.parse(await zip.file('manifest.json')!.async('string')) as { frames: { ts: number }[] };
    expect(manifest.frames.map((f) => f.ts - T0).slice(0, 2)).toEqual([-14_000, -13_000]);
  });

  it('waits the after-failure tail before packaging, so the frames after the signal are in the bundle', async () => {
    const slept: number[] = [];
    const { recorder, afr, ports, clock } = setupRecorder({
      sleep: async (ms) => {
        slept.push(ms);
        clock.t += ms;
      },
    });
    await recorder.start();
    await afr.configure({ postFailureSeconds: 3 });
    await afr.fail({ tabId: 7, reason: 'x' });
    // Then the steps of the tail's last moment, which may still be in their page's batch.
    expect(slept).toEqual([3_000, STEPS_IN_FLIGHT_MS]);
    expect((await ports.bundles.list())[0]!.createdAt).toBe(new Date(T0 + 3_000 + STEPS_IN_FLIGHT_MS).toISOString());
    recorder.loop.stop();
  });

  it('concurrent afr.fail calls on one tab each get their own bundle, one after the other', async () => {
    const { recorder, afr, ports } = setupRecorder();
    await recorder.start();
    const ids = await Promise.all([afr.fail({ tabId: 7, reason: 'a' }), afr.fail({ tabId: 7, reason: 'b' })]);
    expect(new Set(ids).size).toBe(2);
    expect(await ports.bundles.list()).toHaveLength(2);
    recorder.loop.stop();
  });

});

describe('FailureJobs: the frames of a failure', () => {
  it('a screencasting tab gets a screenshot when the signal comes and after the tail, before packaging; a crashed one none', async () => {
    const screencast = screencastPort();
    const events: string[] = [];
    screencast.screenshot.mockImplementation(async () => {
      events.push('screenshot');
      return '';
    });
    const { recorder, afr, clock, attached, ports } = setupRecorder({
      screencast,
      sleep: async (ms) => {
        events.push(`sleep ${ms}`);
        clock.t += ms;
      },
    });
    attached.add(7);
    await recorder.start();
    await afr.configure({ postFailureSeconds: 2, failureCooldownMs: 0 });
    await afr.fail({ tabId: 7, reason: 'agent_failure' });
    expect(events).toEqual(['screenshot', 'sleep 2000', 'screenshot', `sleep ${STEPS_IN_FLIGHT_MS}`]);

    events.length = 0;
    await recorder.handleCdpEvent(7, 'Inspector.targetCrashed', {}, () => 'https://shop.test/cart');
    expect((await ports.bundles.list())[0]!.reason).toBe('tab_crashed');
    expect(events).not.toContain('screenshot');
    recorder.loop.stop();
  });
});

describe('FailureJobs: the sinks', () => {
  it('hands the stored bundle to the sinks before the call resolves; a failing download is logged and costs nothing', async () => {
    const download = vi.fn(async () => {
      throw new Error('Download canceled');
    });
    const { recorder, afr, ports, log } = setupRecorder({ download });
    await recorder.start();
    const id = await afr.fail({ tabId: 7, reason: 'agent_failure' });
    expect(download).toHaveBeenCalledWith(id, expect.any(Uint8Array));
    expect(log).toHaveBeenCalledWith(`[afr] download of ${id} failed: Error: Download canceled`);
    expect((await ports.bundles.list())[0]).toMatchObject({ id, downloadId: null });
    recorder.loop.stop();
  });

  it('a sink that fails neither fails the bundle nor stops the sinks after it', async () => {
    const after = vi.fn(async () => {});
    const { recorder, afr, ports, log } = setupRecorder({
      sinks: [
        {
          name: 'retention',
          afterStore: async () => {
            throw new Error('bundle store refused');
          },
        },
        { name: 'upload', afterStore: after },
      ],
    });
    await recorder.start();
    const id = await afr.fail({ tabId: 7, reason: 'agent_failure' });
    expect(log).toHaveBeenCalledWith(`[afr] retention of ${id} failed: Error: bundle store refused`);
    expect(after).toHaveBeenCalledWith({ summary: expect.objectContaining({ id }), zip: expect.any(Uint8Array) }, { settings: expect.objectContaining({ autoDownload: true }), status: 'failure' });
    expect(await ports.bundles.read(id)).toBeDefined();
    recorder.loop.stop();
  });

  it('bundles with the settings of the moment of the signal, and hands the sinks the same', async () => {
    const afterStore = vi.fn(async () => {});
    let changeSettings = async () => {};
    const { recorder, afr, ports } = setupRecorder({ sinks: [{ name: 'probe', afterStore }], sleep: () => changeSettings() });
    await recorder.start();
    await afr.configure({ postFailureSeconds: 1, bufferSeconds: 20 });
    // The settings change during the after-failure tail.
    changeSettings = async () => void (await ports.settingsStore.update({ bufferSeconds: 30 }));
    await afr.fail({ tabId: 7, reason: 'agent_failure' });
    expect(afterStore).toHaveBeenCalledWith(expect.anything(), { settings: expect.objectContaining({ bufferSeconds: 20 }), status: 'failure' });
    recorder.loop.stop();
  });

  describe('signal bundles: the agent’s during its run, the page’s rules without one', () => {
    /** An exception a minute on tab 7 (past the cooldown each time), `count` times. */
    const throwEveryMinute = async (setup: ReturnType<typeof setupRecorder>, count: number) => {
      for (let i = 0; i < count; i++) {
        await setup.recorder.handleCdpEvent(7, 'Runtime.exceptionThrown', cdpException(`Error: boom ${i}`), () => 'https://shop.test/cart');
        setup.clock.t += 60_000;
      }
    };

    it('without an agent run: at most 10 bundles a tab an hour, unattended, downloaded, the rest on the timeline', async () => {
      const setup = setupRecorder();
      await setup.recorder.start();
      await setup.afr.configure({ postFailureSeconds: 0 });
      await throwEveryMinute(setup, 14);
      const bundles = await setup.ports.bundles.list();
      expect(bundles).toHaveLength(10);
      for (const b of bundles) expect(b).toMatchObject({ trigger: 'signal', unattended: true });
      expect(setup.download).toHaveBeenCalledTimes(10);
      expect((await setup.afr.status()).pageLimits.signalBundlesRefused).toBe(4);
      // The refused ones are on the timeline, marked suppressed (the step log keeps the last minute here).
      const signals = (await setup.ports.stepLog.between(7, 0, setup.clock.t)).filter((s) => s.kind === 'signal');
      expect(signals.at(-1)?.detail).toMatchObject({ signal_kind: 'exception', disposition: 'suppressed', message: expect.stringContaining('boom 13') as string });
      setup.recorder.loop.stop();
    });

    it('during the agent’s run: every signal past the cooldown is bundled, kept and downloaded', async () => {
      const setup = setupRecorder();
      await setup.recorder.start();
      await setup.afr.configure({ postFailureSeconds: 0 });
      await setup.afr.runStart({ agent: 'shop-bot' });
      await throwEveryMinute(setup, 8);
      const bundles = await setup.ports.bundles.list();
      expect(bundles).toHaveLength(8);
      for (const b of bundles) {
        expect(b.trigger).toBe('signal');
        expect(b).not.toHaveProperty('unattended');
      }
      expect(setup.download).toHaveBeenCalledTimes(8);
      expect((await setup.afr.status()).pageLimits.signalBundlesRefused).toBe(0);
      setup.recorder.loop.stop();
    });

    it('without an agent run, a page throwing in a loop never evicts the agent’s bundle', async () => {
      const setup = setupRecorder();
      await setup.recorder.start();
      await setup.afr.configure({ postFailureSeconds: 0, maxStoredBundles: 2 });
      const agentBundle = await setup.afr.fail({ tabId: 7, reason: 'agent_failure' });
      setup.clock.t += 60_000;
      await throwEveryMinute(setup, 4);
      const ids = (await setup.ports.bundles.list()).map((b) => b.id);
      expect(ids).toHaveLength(2);
      expect(ids).toContain(agentBundle);
      setup.recorder.loop.stop();
    });
  });
});

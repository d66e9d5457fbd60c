import JSZip from 'jszip';
import { describe, expect, it, vi } from 'vitest';
import { StepsFileSchema } from '../../schemas/steps';
import { setupRecorder } from '../../test/fakes/recorder';
import type { AutomationApi } from './automation-api';
import { RecorderInputError } from './input-checks';

/** The API as a caller that ignores its types sees it. */
type Untyped = Record<keyof AutomationApi, (input?: unknown) => Promise<unknown>>;

describe('createAutomationApi (afr)', () => {
  it('afr.fail skips the cooldown, defaults to the visible tab and resolves to the stored bundle id', async () => {
    const { recorder, afr, ports, clock } = setupRecorder();
    await recorder.start();
    await vi.waitFor(() => expect(recorder.loop.targets()).toHaveLength(1));
    const first = await afr.fail({ reason: 'agent_failure', label: 'one' });
    clock.t += 5;
    const second = await afr.fail({ reason: 'agent_failure', label: 'two' });
    expect(first).not.toBe(second);
    expect((await ports.bundles.list()).map((b) => [b.label, b.tabId])).toEqual([['two', 7], ['one', 7]]);
    recorder.loop.stop();
  });

  it('afr.fail right after start-up (the capture loop has seen no tab yet) is about the visible tab, timed at the call', async () => {
    let visible: { tabId: number; windowId: number; url: string }[] = [];
    const { recorder, afr, ports, clock } = setupRecorder({
      capturer: { listTargets: async () => visible, capture: async () => ({ jpeg: new Uint8Array([0xff, 0xd8, 1]), width: 1280, height: 720 }) },
    });
    await recorder.start();
    expect(recorder.loop.targets()).toEqual([]);
    // The agent's tab has just navigated to a page the loop has not looked at.
    visible = [{ tabId: 9, windowId: 1, url: 'https://shop.test/next' }];
    const id = await afr.fail({ reason: 'agent_failure' });
    expect((await ports.bundles.list())[0]).toMatchObject({ tabId: 9 });
    const zip = await JSZip.loadAsync((await ports.bundles.read(id))!);
    const steps = StepsFileSchema.parse(JSON.parse(await zip.file('steps.json')!.async('string')));
    expect(steps.steps.at(-1)).toMatchObject({ tab_id: 9, ts: clock.t, action: 'failure: agent_failure' });
    recorder.loop.stop();
  });

  it.each([
    ['fail without reason', (afr: Untyped) => afr.fail({}), /afr\.fail: reason/],
    ['assert without passed', (afr: Untyped) => afr.assert({ label: 'x' }), /afr\.assert: passed/],
    ['runStart with a bad run id', (afr: Untyped) => afr.runStart({ runId: '../x' }), /afr\.runStart: runId/],
    ['signals with a bad regex', (afr: Untyped) => afr.configure({ signals: { exception: { ignoreMessages: ['('] } } }), /regular expression/],
    ['fail with a huge reason', (afr: Untyped) => afr.fail({ reason: 'x'.repeat(5_000) }), /reason/],
    ['step with unknown keys', (afr: Untyped) => afr.step({ action: 'x', secret: 1 }), /afr\.step/],
    ['export of a path', (afr: Untyped) => afr.exportBundle('../../etc/passwd'), /not a bundle id/],
    ['export of a missing bundle', (afr: Untyped) => afr.exportBundle('afr-20261122T120000Z-aaaaaa'), /no bundle with id/],
    ['configure with a bad value', (afr: Untyped) => afr.configure({ jpegQuality: 500 }), /jpegQuality/],
  ])('rejects %s with a message', async (_name, call, message) => {
    const { recorder, afr } = setupRecorder();
    await recorder.start();
    const error = await call(afr as unknown as Untyped).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(message);
    expect(error instanceof RecorderInputError || (error as Error).name === 'SettingsError').toBe(true);
    recorder.loop.stop();
  });
});

describe('createAutomationApi: bundles and settings', () => {
  it('waits for the start-up, then lists, exports and deletes bundles and reads and changes the settings', async () => {
    const { recorder, afr } = setupRecorder();
    expect((await afr.getSettings()).persistMode).toBe('on_fail');
    const id = await afr.fail({ tabId: 7, reason: 'agent_failure' });
    expect((await afr.listBundles()).map((b) => b.id)).toEqual([id]);
    expect(await afr.exportBundle(id)).toMatch(/^UEsDB/); // a zip
    expect(await afr.deleteBundle(id)).toBe(true);
    expect(await afr.listBundles()).toEqual([]);
    expect(await afr.configure({ persistMode: 'always' })).toMatchObject({ persistMode: 'always' });
    expect((await afr.status()).persistMode).toBe('always');
    recorder.loop.stop();
  });
});

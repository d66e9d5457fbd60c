import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import type { CaptureTarget, Capturer } from '../capture/ports';
import type { MemoryBundleStore } from '../bundle/memory-bundle-store';
import { MemoryKeyValueStore, SettingsStore } from '../settings/settings-store';
import { setupRecorder } from '../../test/fakes/recorder';
import { TabPages } from './tab-pages';

// A page given on Chromium's command line meets the service worker's start-up in any order. Wired as
// the service worker wires them: the browser's reports go through `TabPages`, what it takes reaches
// the recorder, and the recorder reads tab URLs from it.

const PAGE = 'https://shop.test/errors.html';

async function manifestOf(bundles: MemoryBundleStore, id: string): Promise<Record<string, unknown>> {
  const zip = await JSZip.loadAsync((await bundles.read(id))!);
  return JSON.parse(await zip.file('manifest.json')!.async('string')) as Record<string, unknown>;
}

async function setup() {
  const settingsStore = new SettingsStore(new MemoryKeyValueStore(), () => undefined);
  await settingsStore.load();
  await settingsStore.update({ scope: 'agent', failureCooldownMs: 0 });
  // The capture loop lists only tabs showing a web page: none until the tab commits one.
  let targets: CaptureTarget[] = [];
  const capturer: Capturer = { listTargets: async () => targets, capture: async () => ({ jpeg: new Uint8Array([0xff, 0xd8, 1]), width: 1280, height: 720 }) };
  const pages = new TabPages({ redact: (url) => url, isWebPage: (url) => /^https?:/.test(url) });
  const setup = setupRecorder({ settingsStore, capturer, activeTab: async () => 7, currentTabUrl: (tabId) => pages.url(tabId) });
  const { recorder } = setup;
  /** What the background does with a report of the tab's page (an event, or the start-up query's answer). */
  const see = (url: string, asOf?: number) => {
    const change = pages.see(7, url, asOf);
    if (change.taken) recorder.handleTabSeen(7, url);
    if (change.becameWebPage) targets = [{ tabId: 7, windowId: 1, url }];
    return change;
  };
  return { ...setup, pages, see };
}

describe('Recorder: a command-line page and the worker start-up, in any order', () => {
  it.each([
    ['worker first: the start-up query sees the tab without a URL, the run starts, the tab commits', ['query:', 'runStart', 'event:' + PAGE]],
    ['tab loading: about:blank at start-up, the run starts, the URL as it loads and once complete', ['query:about:blank', 'runStart', 'event:' + PAGE, 'event:' + PAGE]],
    ['tab first: the tab commits while the query is answered (its stale empty answer comes after), then the run starts', ['mark', 'event:' + PAGE, 'query:', 'runStart']],
  ])('%s: the run binds the tab, which is recorded with its URL and bundled with it', async (_name, order) => {
    const { recorder, afr, ports, pages, see } = await setup();
    await recorder.start();
    let asOf = pages.mark();
    for (const move of order) {
      if (move === 'mark') asOf = pages.mark();
      else if (move === 'runStart') await afr.runStart({ agent: 'cli-agent' });
      else if (move.startsWith('query:')) see(move.slice('query:'.length), asOf);
      else see(move.slice('event:'.length));
    }
    const status = await afr.status();
    expect(status.scope.agentTabs).toEqual([7]);
    expect(recorder.recordsTab(7)).toBe(true);
    expect(ports.watchTab).toHaveBeenCalledWith(7);
    expect(pages.url(7)).toBe(PAGE);
    const id = await afr.fail({ reason: 'agent_failure' });
    expect(await manifestOf(ports.bundles as MemoryBundleStore, id)).toMatchObject({ tab_id: 7, url_at_failure: PAGE });
  });
});

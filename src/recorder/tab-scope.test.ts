import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS, type Settings } from '../../schemas/settings';
import { MemoryKeyValueStore } from '../settings/settings-store';
import { SCOPE_KEY, TabScope } from './tab-scope';

function setup(over: Partial<Settings> = {}, { runActive = false, active = 3 as number | null } = {}) {
  let settings: Settings = { ...DEFAULT_SETTINGS, ...over };
  const state = { runActive };
  const sessionStore = new MemoryKeyValueStore();
  const changed = vi.fn();
  const make = () =>
    new TabScope({ sessionStore, settings: () => settings, agentRunActive: () => state.runActive, activeTab: async () => active, changed });
  return { scope: make(), make, sessionStore, changed, state, set: (next: Partial<Settings>) => (settings = { ...settings, ...next }) };
}

describe('TabScope', () => {
  it('a tab without a URL yet (a command-line page the worker saw before it committed) enters the allow-listed scope when it commits; an empty URL never erases one', async () => {
    const { scope, changed } = setup({ scope: 'chosen', scopeOrigins: ['https://shop.test'] });
    await scope.load();
    scope.tabSeen(7, '');
    expect(scope.recordsTab(7)).toBe(false);
    scope.tabSeen(7, 'https://shop.test/errors.html');
    expect(scope.recordsTab(7)).toBe(true);
    scope.tabSeen(7, '');
    expect(scope.recordsTab(7)).toBe(true);
    expect(changed.mock.calls).toEqual([[7, true]]);
  });

  it('records every tab with scope all, and says so once per tab as tabs appear', async () => {
    const { scope, changed } = setup();
    await scope.load();
    scope.tabSeen(1, 'https://mail.example/');
    scope.tabSeen(2, 'chrome://settings');
    scope.tabSeen(1, 'https://mail.example/inbox');
    expect(scope.recordsTab(1)).toBe(true);
    expect(scope.recordedTabs()).toEqual([1, 2]);
    expect(changed.mock.calls).toEqual([[1, true], [2, true]]);
  });

  it('with scope agent, records the tab of the run, tabs created during it and tabs it opens, until the run ends', async () => {
    const { scope, changed, state } = setup({ scope: 'agent' });
    await scope.load();
    scope.tabSeen(1, 'https://mail.example/');
    expect(scope.recordsTab(1)).toBe(false);
    await scope.tabCreated(2, null, 'about:blank'); // the operator's new tab, no run yet
    expect(await scope.agentRunStarted(5)).toBe(5);
    state.runActive = true;
    await scope.tabCreated(6, null, null); // context.newPage() during the run
    state.runActive = false; // from here only the opener rule can make a tab the agent's
    await scope.tabCreated(7, 6, null); // window.open from an agent tab
    await scope.tabCreated(8, 1, null); // opened from the operator's tab
    expect(scope.recordedTabs()).toEqual([5, 6, 7]);
    expect(changed.mock.calls).toEqual([[5, true], [6, true], [7, true]]);
    await scope.agentRunEnded();
    expect(scope.recordedTabs()).toEqual([]);
    expect(changed.mock.calls.slice(3)).toEqual([[5, false], [6, false], [7, false]]);
  });

  it('binds a run started with no tab to the active tab', async () => {
    const { scope } = setup({ scope: 'agent' }, { active: 9 });
    await scope.load();
    expect(await scope.agentRunStarted(null)).toBe(9);
    expect(scope.recordsTab(9)).toBe(true);
  });

  it('with scope chosen, records chosen tabs and allow-listed origins, following navigations', async () => {
    const { scope, changed } = setup({ scope: 'chosen', scopeOrigins: ['https://shop.example'] });
    await scope.load();
    scope.tabSeen(1, 'https://mail.example/');
    scope.tabSeen(2, 'https://shop.example/cart');
    expect(scope.recordedTabs()).toEqual([2]);
    await scope.choose(1, true);
    expect(scope.recordedTabs()).toEqual([1, 2]);
    scope.tabSeen(2, 'https://elsewhere.example/');
    expect(scope.recordsTab(2)).toBe(false);
    await scope.choose(1, false);
    expect(scope.recordedTabs()).toEqual([]);
    expect(changed.mock.calls).toEqual([[2, true], [1, true], [2, false], [1, false]]);
  });

  it('follows a change of the settings when refreshed', async () => {
    const { scope, changed, set } = setup();
    await scope.load();
    scope.tabSeen(1, 'https://mail.example/');
    set({ scope: 'chosen' });
    scope.refresh();
    expect(changed.mock.calls).toEqual([[1, true], [1, false]]);
  });

  it('keeps the agent and chosen tabs across a service worker restart, and drops those closed meanwhile', async () => {
    const { scope, make, sessionStore } = setup({ scope: 'chosen' });
    await scope.load();
    await scope.choose(4, true);
    await scope.choose(5, true);
    await scope.agentRunStarted(6);
    expect(await sessionStore.get(SCOPE_KEY)).toEqual({ agent: [6], chosen: [4, 5] });
    const restarted = make();
    await restarted.load();
    expect(restarted.recordsTab(4)).toBe(true);
    await restarted.keepTabs([4, 6]);
    expect(restarted.sets).toEqual({ agent: [6], chosen: [4] });
    await restarted.forget(4);
    expect(await sessionStore.get(SCOPE_KEY)).toEqual({ agent: [6], chosen: [] });
  });

  it('tells nothing before the stored sets are loaded, and reads a damaged store as empty', async () => {
    const { scope, changed, sessionStore } = setup({ scope: 'agent' });
    await sessionStore.set(SCOPE_KEY, { agent: ['x', 2.5, 3], chosen: 'no' });
    scope.tabSeen(3, 'https://shop.example/');
    expect(changed).not.toHaveBeenCalled();
    await scope.load();
    expect(scope.sets).toEqual({ agent: [3], chosen: [] });
    expect(changed.mock.calls).toEqual([[3, true]]);
  });
});

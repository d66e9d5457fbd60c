import { describe, expect, it } from 'vitest';
import type { Settings } from '../../schemas/settings';
import { TabLookup, type TabLookupPorts } from './tab-lookup';

const target = (tabId: number, url: string) => ({ tabId, windowId: tabId, url });

function lookup(over: { scope?: Settings['scope']; visible?: number[]; recorded?: number[]; current?: Record<number, string> } = {}) {
  const visible = (over.visible ?? [7]).map((id) => target(id, `https://tab${id}.test/`));
  const recorded = over.recorded ?? [7];
  const ports: TabLookupPorts = {
    frames: { targets: () => [target(7, 'https://loop.test/')], listTargets: async () => visible },
    settings: () => ({ scope: over.scope ?? 'agent' }),
    scope: { recordsTab: (id) => recorded.includes(id), recordedTabs: () => recorded },
    ...(over.current ? { currentTabUrl: (id: number) => over.current![id] ?? null } : {}),
  };
  return new TabLookup(ports);
}

describe('TabLookup', () => {
  it.each([
    { name: 'a tab named', tabId: 9, over: {}, want: 9 },
    { name: 'scope all: the visible tab', tabId: undefined, over: { scope: 'all' as const, visible: [3, 7], recorded: [7] }, want: 3 },
    { name: 'the visible tab recorded first', tabId: undefined, over: { visible: [3, 7], recorded: [7, 3] }, want: 3 },
    { name: 'a recorded tab that is not visible', tabId: undefined, over: { visible: [3], recorded: [5] }, want: 5 },
    { name: 'none recorded, none visible', tabId: undefined, over: { visible: [], recorded: [] }, want: null },
  ])('the tab a command is about: $name', async ({ tabId, over, want }) => {
    expect((await lookup(over).tabFor(tabId)).tabId).toBe(want);
  });

  it.each([
    { name: 'the browser’s latest word first', current: { 7: 'https://now.test/' }, tabId: 7, want: 'https://now.test/' },
    { name: 'else the capture loop’s', current: {}, tabId: 7, want: 'https://loop.test/' },
    { name: 'a tab neither knows', current: {}, tabId: 8, want: null },
  ] as { name: string; current: Record<number, string>; tabId: number; want: string | null }[])('a tab’s URL: $name', async ({ current, tabId, want }) => {
    const tabs = lookup({ current });
    expect(tabs.tabUrl(tabId)).toBe(want);
    expect(await tabs.tabFor(tabId)).toEqual({ tabId, url: want });
  });
});

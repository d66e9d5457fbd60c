import { describe, expect, it, vi } from 'vitest';
import { NO_DOWNLOAD } from '../bundle/download-check';
import type { Badge } from './ports';
import { Toolbar } from './toolbar';
import type { ToolbarInputs } from './toolbar-badge';

function setup(initial: Partial<ToolbarInputs> = {}) {
  let inputs: ToolbarInputs = {
    paused: false,
    captureLevel: 'full',
    packaging: false,
    downloads: NO_DOWNLOAD,
    scope: { mode: 'all', origins: [], recordedTabs: [], agentTabs: [], chosenTabs: [] },
    ...initial,
  };
  const deferred: (() => void)[] = [];
  const set: [number | null, string][] = [];
  const read = vi.fn(async () => inputs);
  const badge = { set: vi.fn(async (tabId: number | null, b: Badge) => void set.push([tabId, b.text])) };
  const log = vi.fn();
  const toolbar = new Toolbar({ read, badge, log, defer: (fn) => deferred.push(fn) });
  const flush = async () => {
    while (deferred.length) deferred.shift()!();
    await toolbar.settled();
  };
  return { toolbar, read, badge, set, log, flush, change: (over: Partial<ToolbarInputs>) => (inputs = { ...inputs, ...over }) };
}

describe('Toolbar', () => {
  it('reads the state once for the changes of one moment, and sets only what differs', async () => {
    const t = setup();
    t.toolbar.refresh();
    t.toolbar.refresh();
    t.toolbar.refresh();
    await t.flush();
    expect(t.read).toHaveBeenCalledTimes(1);
    expect(t.set).toEqual([[null, 'REC']]);
    t.toolbar.refresh();
    await t.flush();
    expect(t.set).toHaveLength(1);
    t.change({ paused: true });
    t.toolbar.refresh();
    await t.flush();
    expect(t.set.at(-1)).toEqual([null, 'II']);
  });

  it('reads nothing until told of a change', async () => {
    const t = setup();
    await t.flush();
    expect(t.read).not.toHaveBeenCalled();
  });

  it("sets a recorded tab's badge again after Chrome dropped it on navigation", async () => {
    const t = setup({ scope: { mode: 'agent', origins: [], recordedTabs: [5], agentTabs: [5], chosenTabs: [] } });
    t.toolbar.refresh();
    await t.flush();
    expect(t.set).toEqual([[null, ''], [5, 'REC']]);
    t.toolbar.tabNavigated(5);
    await t.flush();
    expect(t.set.at(-1)).toEqual([5, 'REC']);
    // A tab that never had one of its own shows the shared badge: nothing to set again.
    t.toolbar.tabNavigated(9);
    await t.flush();
    expect(t.set).toHaveLength(3);
  });

  it('logs a badge Chrome refused and still sets the others', async () => {
    const t = setup({ scope: { mode: 'agent', origins: [], recordedTabs: [5, 6], agentTabs: [5, 6], chosenTabs: [] } });
    t.badge.set.mockImplementationOnce(async () => undefined).mockImplementationOnce(async () => {
      throw new Error('No tab with id: 5.');
    });
    t.toolbar.refresh();
    await t.flush();
    expect(t.log).toHaveBeenCalledWith(expect.stringContaining('tab 5 not set: No tab with id: 5.'));
    expect(t.badge.set).toHaveBeenLastCalledWith(6, expect.objectContaining({ text: 'REC' }));
  });

  it('logs a state it could not read and tries again on the next change', async () => {
    const t = setup();
    t.read.mockRejectedValueOnce(new Error('storage gone'));
    t.toolbar.refresh();
    await t.flush();
    expect(t.log).toHaveBeenCalledWith('[afr] toolbar badge not updated: storage gone');
    t.toolbar.refresh();
    await t.flush();
    expect(t.set).toEqual([[null, 'REC']]);
  });
});

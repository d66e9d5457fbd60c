import { describe, expect, it } from 'vitest';
import { NO_DOWNLOAD } from '../bundle/download-check';
import { toolbarBadge, toolbarState, toolbarView, type ToolbarInputs } from './toolbar-badge';

const upload = { mode: 's3' as const, queued: 0, uploading: 0, delivered: 0, failed: 0, skipped: 0, lastError: null, lastDeliveredAt: null, managed: false, heldByRetention: 0 };
const base: ToolbarInputs = {
  paused: false,
  captureLevel: 'full',
  packaging: false,
  downloads: NO_DOWNLOAD,
  scope: { mode: 'all', origins: [], recordedTabs: [1, 2], agentTabs: [], chosenTabs: [] },
  upload,
  lastBundleError: null,
};
const interrupted = { ...NO_DOWNLOAD, lastBundleId: 'b1', state: 'interrupted' as const, error: 'USER_CANCELED' };

describe('toolbarState', () => {
  it.each<[string, Partial<ToolbarInputs>, boolean, string]>([
    ['recording', {}, true, 'recording'],
    ['capture level off', { captureLevel: 'off' }, true, 'idle'],
    ['the timeline only is still recording', { captureLevel: 'metadata' }, true, 'recording'],
    ['paused', { paused: true }, true, 'paused'],
    ['a bundle being written wins over the pause', { paused: true, packaging: true }, true, 'packaging'],
    ['a bundle that could not be written', { lastBundleError: 'QuotaExceededError' }, true, 'bundle-failed'],
    ['a bundle download Chrome did not save', { downloads: interrupted }, true, 'bundle-failed'],
    ['packaging the next bundle shows over the failed one', { downloads: interrupted, packaging: true }, true, 'packaging'],
    ['a failure shows over the pause', { paused: true, lastBundleError: 'x' }, true, 'bundle-failed'],
    ['uploads waiting', { upload: { ...upload, queued: 2 } }, true, 'upload-pending'],
    ['an upload under way', { upload: { ...upload, uploading: 1 } }, true, 'upload-pending'],
    ['the pause shows over uploads waiting', { paused: true, upload: { ...upload, queued: 2 } }, true, 'paused'],
    ['delivered and given-up uploads are not waiting', { upload: { ...upload, delivered: 3, failed: 1 } }, true, 'recording'],
    ['a tab outside the scope is not recording', {}, false, 'idle'],
    ['nor paused', { paused: true }, false, 'idle'],
    ['but sees a bundle being written', { packaging: true }, false, 'packaging'],
    ['and a failed one', { downloads: interrupted }, false, 'bundle-failed'],
    ['and uploads waiting', { upload: { ...upload, queued: 1 } }, false, 'upload-pending'],
  ])('%s', (_, over, recorded, state) => {
    expect(toolbarState({ ...base, ...over }, recorded)).toBe(state);
  });
});

describe('toolbarBadge', () => {
  it('gives each state its own text and colour', () => {
    const states: Partial<ToolbarInputs>[] = [{}, { paused: true }, { packaging: true }, { lastBundleError: 'x' }, { upload: { ...upload, queued: 1 } }];
    const badges = states.map((over) => toolbarBadge({ ...base, ...over }, true));
    expect(badges.map((b) => b.text)).toEqual(['REC', 'II', '\u2026', '!', '\u2191']);
    expect(new Set(badges.map((b) => b.color)).size).toBe(5);
  });

  it('says in the tooltip why the last bundle failed', () => {
    expect(toolbarBadge({ ...base, downloads: interrupted }, true).title).toBe('Agent Flight Recorder: the last bundle failed: Chrome did not save its download (USER_CANCELED)');
    expect(toolbarBadge({ ...base, lastBundleError: 'zip too large' }, true).title).toContain('it could not be written (zip too large)');
  });

  it('shows no badge on a tab that is not recorded', () => {
    const badge = toolbarBadge(base, false);
    expect(badge.text).toBe('');
    expect(badge.title).toContain('outside the recording scope');
  });
});

describe('toolbarView', () => {
  it('serves every tab with one badge when every tab is recorded', () => {
    const view = toolbarView(base);
    expect(view.global.text).toBe('REC');
    expect(view.tabs.size).toBe(0);
  });

  it('gives recorded tabs their own badge under a narrower scope; the others show none', () => {
    const view = toolbarView({ ...base, scope: { ...base.scope, mode: 'agent', recordedTabs: [4] } });
    expect(view.global.text).toBe('');
    expect([...view.tabs].map(([tab, b]) => [tab, b.text])).toEqual([[4, 'REC']]);
  });

  it('takes the recording badge off a tab that left the scope', () => {
    const view = toolbarView({ ...base, scope: { ...base.scope, mode: 'agent', recordedTabs: [] } }, [4]);
    expect(view.tabs.get(4)?.text).toBe('');
  });
});

// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../schemas/settings';
import type { Status } from '../../schemas/api';
import { describeState, mountPopup, ringFigures } from './popup-page';
import { fakePorts, makeBundle, makeStatus, settle } from '../../test/fakes/ui-data';

const text = (testid: string) => document.querySelector(`[data-testid="${testid}"]`)?.textContent;

describe('popup figures', () => {
  it.each([
    [{ recording: true, paused: false }, 'Recording'],
    [{ recording: false, paused: true }, 'Paused'],
    [{ recording: true, paused: true }, 'Paused'],
    [{ recording: false, paused: false }, 'Not recording'],
  ])('%j → %s', (status, word) => expect(describeState(status)).toBe(word));

  it('shows the ring against the settings', () => {
    expect(ringFigures(makeStatus(), DEFAULT_SETTINGS)).toEqual({
      seconds: '12.3 s of 15 s',
      frames: '23',
      bytes: '4.2 MiB of 64.0 MiB',
      capture: 'visibleTab \u00B7 1.8 fps \u00B7 2 errors (1 quota)',
    });
    expect(ringFigures(makeStatus({ captureErrors: 0, quotaErrors: 0 }), DEFAULT_SETTINGS).capture).toBe('visibleTab \u00B7 1.8 fps');
    expect(ringFigures(makeStatus({ captureErrors: 0, droppedFrames: 3 }), DEFAULT_SETTINGS).capture).toBe('visibleTab \u00B7 1.8 fps \u00B7 3 dropped for masking');
    expect(ringFigures(makeStatus({ oldestFrameAgeMs: null, frames: 0, bytes: 0 }), DEFAULT_SETTINGS).seconds).toBe('\u2013 of 15 s');
    // Frames older than the window (a still page's last one) make it no longer than it is.
    expect(ringFigures(makeStatus({ oldestFrameAgeMs: 21_800 }), DEFAULT_SETTINGS).seconds).toBe('15.0 s of 15 s');
  });
});

describe('popup', () => {
  let root: HTMLElement;
  let stop: () => void = () => undefined;
  let status: Status;
  beforeEach(() => {
    root = document.createElement('div');
    document.body.replaceChildren(root);
    status = makeStatus({
      tabs: [
        { tabId: 7, windowId: 1, url: 'https://shop.test/cart', debugger: true, debuggerError: null, signals: 'debugger', source: 'screencast', pageRunId: null, recorded: true },
        { tabId: 8, windowId: 2, url: '<img src=x onerror=alert(1)>', debugger: false, debuggerError: 'detached: canceled_by_user', signals: 'page', source: 'visibleTab', pageRunId: null, recorded: true },
      ],
    });
  });
  afterEach(() => stop());

  const api = () => ({
    status: () => status,
    getSettings: () => DEFAULT_SETTINGS,
    listBundles: () => [makeBundle({ id: 'afr-b', label: 'cart is empty', reason: 'assertion_failed' }), makeBundle({ id: 'afr-a' })],
    pause: () => (status = { ...status, paused: true, recording: false }),
    resume: () => (status = { ...status, paused: false, recording: true }),
    saveBundle: () => 'afr-new',
    downloadBundle: () => 3,
  });

  it('shows the state, the figures, the recorded tabs and the last bundles', async () => {
    const { ports } = fakePorts(api());
    stop = mountPopup(root, ports, { intervalMs: 60_000 });
    await settle();
    expect(text('state')).toBe('Recording');
    expect(text('ring-frames')).toBe('23');
    expect(text('ring-bytes')).toBe('4.2 MiB of 64.0 MiB');
    expect(text('capture-level')).toBe('full');
    expect(text('persist-mode')).toBe('on_fail');
    const tabs = [...root.querySelectorAll('[data-testid="tabs"] li')].map((li) => li.textContent);
    expect(tabs).toEqual(['https://shop.test/cartdebugger', '<img src=x onerror=alert(1)>debugger off: detached by the user (the \u201Cstarted debugging this browser\u201D bar was closed) \u00B7 page-level signals']);
    expect(root.querySelector('img')).toBeNull();
    const bundles = [...root.querySelectorAll('[data-testid="recent-bundles"] > li')];
    expect(bundles.map((li) => (li as HTMLElement).dataset.bundleId)).toEqual(['afr-b', 'afr-a']);
    expect(bundles[0]!.textContent).toContain('assertion_failed cart is empty');
    expect(bundles[0]!.querySelector('a')!.getAttribute('href')).toBe('chrome-extension://afr/viewer.html?id=afr-b');
  });

  it('pauses and resumes', async () => {
    const { ports, calls } = fakePorts(api());
    stop = mountPopup(root, ports, { intervalMs: 60_000 });
    await settle();
    const toggle = root.querySelector<HTMLButtonElement>('[data-testid="pause-toggle"]')!;
    toggle.click();
    await settle();
    expect(text('state')).toBe('Paused');
    expect(toggle.textContent).toBe('Resume');
    toggle.click();
    await settle();
    expect(text('state')).toBe('Recording');
    expect(calls.map((c) => c[0]).filter((m) => m === 'pause' || m === 'resume')).toEqual(['pause', 'resume']);
  });

  it('saves a bundle of the visible tab and shows its id', async () => {
    const { ports, calls } = fakePorts(api());
    stop = mountPopup(root, ports, { intervalMs: 60_000 });
    await settle();
    root.querySelector<HTMLButtonElement>('[data-testid="save-bundle"]')!.click();
    await settle();
    expect(calls).toContainEqual(['saveBundle', { tabId: 7 }]);
    expect(text('action-message')).toBe('Saved afr-new. Open in viewer');
  });

  it('leaves the tab to the background when no web page is visible, and shows its error', async () => {
    const { ports, calls } = fakePorts({ ...api(), saveBundle: () => Promise.reject(new Error('no tab to bundle')) }, { visibleWebTab: async () => null });
    stop = mountPopup(root, ports, { intervalMs: 60_000 });
    await settle();
    root.querySelector<HTMLButtonElement>('[data-testid="save-bundle"]')!.click();
    await settle();
    expect(calls).toContainEqual(['saveBundle', {}]);
    expect(text('action-message')).toBe('Not saved: no tab to bundle');
  });

  it('says when the recorder does not answer', async () => {
    const { ports } = fakePorts({ ...api(), status: () => Promise.reject(new Error('the recorder did not answer status()')) });
    stop = mountPopup(root, ports, { intervalMs: 60_000 });
    await settle();
    expect(text('status-error')).toBe('The recorder does not answer: the recorder did not answer status()');
  });
});

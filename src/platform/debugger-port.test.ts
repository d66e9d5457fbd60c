import { afterEach, describe, expect, it, vi } from 'vitest';
import { DebuggerPort, type DebuggerEvents } from './debugger-port';

// `wxt/browser` is Chrome's own `chrome` in the extension: here, the `chrome` each test stubs.
vi.mock('wxt/browser', () => ({
  get browser() {
    return globalThis.chrome;
  },
}));

type Listener<A extends unknown[]> = (...args: A) => void;

/** Just enough of `chrome.debugger`: attach, sendCommand, and the two events, which a test fires. */
function fakeDebugger() {
  const onEvent: Listener<[{ tabId?: number }, string, unknown]>[] = [];
  const onDetach: Listener<[{ tabId?: number }, string]>[] = [];
  const api = {
    attach: vi.fn(async (_target: { tabId: number }, _version: string) => {}),
    sendCommand: vi.fn(async (_target: { tabId: number }, _method: string, _params?: object): Promise<unknown> => ({})),
    onEvent: { addListener: (l: Listener<[{ tabId?: number }, string, unknown]>) => onEvent.push(l) },
    onDetach: { addListener: (l: Listener<[{ tabId?: number }, string]>) => onDetach.push(l) },
  };
  vi.stubGlobal('chrome', { debugger: api });
  return { api, detach: (tabId: number, reason: string) => onDetach.forEach((l) => l({ tabId }, reason)) };
}

function setup() {
  const chromeFake = fakeDebugger();
  const events: DebuggerEvents = { onEvent: vi.fn(), onDetached: vi.fn(), onAttached: vi.fn() };
  return { ...chromeFake, events, port: new DebuggerPort(events) };
}

describe('DebuggerPort', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('attaches once per tab, enables the signal domains and reports the session ready', async () => {
    const { api, events, port } = setup();
    await Promise.all([port.ensureAttached(7), port.ensureAttached(7)]);
    await port.ensureAttached(7);
    expect(api.attach).toHaveBeenCalledTimes(1);
    expect(api.sendCommand.mock.calls.map((c) => c[1])).toEqual(['Runtime.enable', 'Log.enable', 'Network.enable', 'Inspector.enable', 'Page.enable']);
    expect(events.onAttached).toHaveBeenCalledWith(7);
    expect(port.stateOf(7)).toEqual({ attached: true, error: null });
    expect(port.attachedTabs()).toEqual([7]);
  });

  it('does not reopen a session the person closed, but does one Chrome ended (a chrome:// page)', async () => {
    const { api, detach, events, port } = setup();
    await port.ensureAttached(7);
    await port.ensureAttached(8);
    detach(7, 'canceled_by_user');
    detach(8, 'target_closed');
    expect(events.onDetached).toHaveBeenCalledWith(7, 'canceled_by_user');
    expect(port.stateOf(7)).toEqual({ attached: false, error: 'detached: canceled_by_user' });
    expect(port.attachedTabs()).toEqual([]);
    await port.ensureAttached(7);
    await port.ensureAttached(8);
    expect(api.attach.mock.calls.map((c) => c[0].tabId)).toEqual([7, 8, 8]);
    expect(port.attachedTabs()).toEqual([8]);
  });

  it('remembers a refusal instead of retrying in a loop, and reuses a session left by a previous worker', async () => {
    const { api, port } = setup();
    api.attach.mockRejectedValueOnce(new Error('Cannot access a chrome:// URL'));
    await port.ensureAttached(3);
    expect(port.stateOf(3)).toEqual({ attached: false, error: 'Cannot access a chrome:// URL' });
    api.attach.mockRejectedValueOnce(new Error('Another debugger is already attached to the tab with id: 4.'));
    await port.ensureAttached(4);
    expect(port.stateOf(4)).toEqual({ attached: true, error: null });
  });

  it('sends only the commands the recorder needs', async () => {
    const { api, port } = setup();
    await port.ensureAttached(7);
    api.sendCommand.mockResolvedValueOnce({ data: 'abc' });
    await expect(port.captureScreenshot(7, 70)).resolves.toBe('abc');
    await port.startScreencast(7, { quality: 70, maxWidth: 1280, maxHeight: 720, fps: 8 });
    expect(api.sendCommand).toHaveBeenLastCalledWith({ tabId: 7 }, 'Page.startScreencast', { format: 'jpeg', everyNthFrame: 7, quality: 70, maxWidth: 1280, maxHeight: 720 });
    // Nothing else can be sent through the port: its send path refuses any other method.
    const send = (port as unknown as { send(tabId: number, method: string): Promise<unknown> }).send.bind(port);
    await expect(send(7, 'Runtime.evaluate')).rejects.toThrow('CDP command Runtime.evaluate is not allowed');
  });

  it('in a browser without chrome.debugger (Firefox), starts and reports every tab unavailable instead of throwing', async () => {
    vi.stubGlobal('chrome', {});
    const events: DebuggerEvents = { onEvent: vi.fn(), onDetached: vi.fn(), onAttached: vi.fn() };
    const port = new DebuggerPort(events);
    await port.ensureAttached(7);
    await port.detach(8);
    expect(port.stateOf(7)).toEqual({ attached: false, error: expect.stringMatching(/no chrome\.debugger/) });
    expect(port.attachedTabs()).toEqual([]);
    expect(events.onAttached).not.toHaveBeenCalled();
  });
});

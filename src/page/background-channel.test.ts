import { describe, expect, it, vi } from 'vitest';
import { openBackgroundChannel, STOPPED_PORT_MIN_LIFE_MS, type PortLike } from './background-channel';

/** A port the background can drop (`drop()`); posting on a dropped port throws, as Chrome's does. */
function fakePort(sent: unknown[]) {
  const listeners: (() => void)[] = [];
  let dropped = false;
  const port: PortLike & { drop(): void; silentlyDrop(): void } = {
    postMessage(message) {
      if (dropped) throw new Error('Attempting to use a disconnected port object');
      sent.push(message);
    },
    disconnect: vi.fn(() => {
      dropped = true;
    }),
    onDisconnect: { addListener: (l) => listeners.push(l) },
    drop() {
      dropped = true;
      listeners.forEach((l) => l());
    },
    silentlyDrop() {
      dropped = true; // the disconnect event has not arrived yet
    },
  };
  return port;
}

function setup() {
  const sent: unknown[] = [];
  const ports: ReturnType<typeof fakePort>[] = [];
  const connect = vi.fn((_again: boolean) => {
    const port = fakePort(sent);
    ports.push(port);
    return port;
  });
  const onGone = vi.fn();
  const warn = vi.fn();
  const onBackgroundStopped = vi.fn();
  const clock = { t: 0 };
  const channel = openBackgroundChannel(connect, onGone, warn, { onBackgroundStopped, now: () => clock.t });
  return { channel, connect, ports, sent, onGone, warn, onBackgroundStopped, clock };
}

describe('openBackgroundChannel', () => {
  it('opens one port on the first message and sends every message through it, in order', () => {
    const { channel, connect, sent } = setup();
    expect(connect).not.toHaveBeenCalled();
    for (let i = 0; i < 5; i++) expect(channel.send({ n: i })).toBe(true);
    expect(connect).toHaveBeenCalledTimes(1);
    expect(sent).toEqual([0, 1, 2, 3, 4].map((n) => ({ n })));
  });

  it('opens a new port after the background dropped the old one (a service worker restart)', () => {
    const { channel, connect, ports, sent } = setup();
    channel.send('a');
    ports[0]!.drop();
    channel.send('b');
    expect(connect).toHaveBeenCalledTimes(2);
    expect(sent).toEqual(['a', 'b']);
  });

  it('says when it opens a port again because the background dropped one it had kept a while, not when it refused one or this side let it go', () => {
    const { channel, connect, ports, clock } = setup();
    channel.send('a');
    clock.t += STOPPED_PORT_MIN_LIFE_MS;
    ports[0]!.drop(); // the worker stopped, and we heard it
    channel.send('b'); // again
    clock.t += STOPPED_PORT_MIN_LIFE_MS;
    ports[1]!.silentlyDrop(); // the worker stopped, not heard yet: posting throws
    channel.send('c'); // again
    ports[2]!.drop(); // refused at once
    channel.send('d'); // not again
    clock.t += STOPPED_PORT_MIN_LIFE_MS;
    ports[3]!.drop();
    channel.reopen(); // this side's choice (a page restored from the back/forward cache) before the next message
    channel.send('e'); // not again
    expect(connect.mock.calls.map(([again]) => again)).toEqual([false, true, true, false, false]);
  });

  it('tells when the background dropped a port it had kept a while (its worker stopped), not one it dropped at once', () => {
    const { channel, ports, onBackgroundStopped, clock } = setup();
    channel.send('a');
    clock.t += STOPPED_PORT_MIN_LIFE_MS;
    ports[0]!.drop();
    expect(onBackgroundStopped).toHaveBeenCalledTimes(1);
    // A new port the background refuses at once: no word, so a caller opening another does not loop.
    channel.send('b');
    clock.t += STOPPED_PORT_MIN_LIFE_MS - 1;
    ports[1]!.drop();
    expect(onBackgroundStopped).toHaveBeenCalledTimes(1);
  });

  it('does not tell of ports it let go itself, nor after close()', () => {
    const { channel, ports, onBackgroundStopped, clock } = setup();
    channel.send('a');
    clock.t += 5_000;
    channel.reopen();
    ports[0]!.drop(); // the event of a port this side disconnected
    channel.send('b');
    clock.t += 5_000;
    channel.close();
    ports[1]!.drop();
    expect(onBackgroundStopped).not.toHaveBeenCalled();
  });

  it('retries once on a new port when the old one was dropped before its disconnect event arrived', () => {
    const { channel, connect, ports, sent } = setup();
    channel.send('a');
    ports[0]!.silentlyDrop();
    expect(channel.send('b')).toBe(true);
    expect(connect).toHaveBeenCalledTimes(2);
    expect(sent).toEqual(['a', 'b']);
  });

  it('stops for good when the extension context is gone, telling the caller once', () => {
    const { channel, connect, onGone } = setup();
    connect.mockImplementation(() => {
      throw new Error('Extension context invalidated.');
    });
    expect(channel.send('a')).toBe(false);
    expect(channel.send('b')).toBe(false);
    expect(onGone).toHaveBeenCalledTimes(1);
    expect(connect).toHaveBeenCalledTimes(1);
  });

  it('warns and keeps trying later when the background cannot be reached', () => {
    const { channel, connect, onGone, warn, sent } = setup();
    connect.mockImplementationOnce(() => {
      throw new Error('Could not establish connection.');
    });
    expect(channel.send('lost')).toBe(false);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('Could not establish connection'));
    expect(channel.send('kept')).toBe(true);
    expect(sent).toEqual(['kept']);
    expect(onGone).not.toHaveBeenCalled();
  });

  it('reopen() lets the port go; the next message opens a new one (a prerendered page shown)', () => {
    const { channel, ports, connect, sent } = setup();
    channel.send('before');
    channel.reopen();
    expect(ports[0]!.disconnect).toHaveBeenCalled();
    channel.send('after');
    expect(connect).toHaveBeenCalledTimes(2);
    expect(sent).toEqual(['before', 'after']);
  });

  it('close() disconnects and sends nothing more', () => {
    const { channel, ports, connect } = setup();
    channel.send('a');
    channel.close();
    expect(ports[0]!.disconnect).toHaveBeenCalled();
    expect(channel.send('b')).toBe(false);
    expect(connect).toHaveBeenCalledTimes(1);
  });
});

import { describe, expect, it, vi } from 'vitest';
import { MALFORMED_LOG_SPACING_MS, MalformedMessageLog } from './malformed-message-log';

describe('MalformedMessageLog', () => {
  it('logs a tab’s first drop, then one per spacing with the count dropped meanwhile', () => {
    const clock = { t: 0, now() { return this.t; } };
    const log = vi.fn();
    const malformed = new MalformedMessageLog(clock, log);
    malformed.dropped(7, ': a');
    malformed.dropped(7, ': b');
    malformed.dropped(8, ': c');
    clock.t += MALFORMED_LOG_SPACING_MS;
    malformed.dropped(7, ': d');
    expect(log.mock.calls.map(([line]) => line)).toEqual([
      '[afr] dropped a malformed message from tab 7: a',
      '[afr] dropped a malformed message from tab 8: c',
      '[afr] dropped a malformed message from tab 7: d (1 more dropped without a warning since the last one)',
    ]);
  });

  it('logs a closed tab’s next drop at once, and forgets every tab past 256 senders', () => {
    const log = vi.fn();
    const malformed = new MalformedMessageLog({ now: () => 0 }, log);
    malformed.dropped(7, '');
    malformed.forget(7);
    malformed.dropped(7, '');
    expect(log).toHaveBeenCalledTimes(2);
    for (let tab = 100; tab < 100 + 255; tab++) malformed.dropped(tab, '');
    malformed.dropped(7, '');
    expect(log).toHaveBeenCalledTimes(2 + 255);
    malformed.dropped(1_000, ''); // the 257th sender: all are forgotten
    malformed.dropped(7, '');
    expect(log).toHaveBeenCalledTimes(2 + 255 + 2);
  });

  it('logs at once when the clock is set back, then keeps the spacing from there (never silent for longer)', () => {
    const clock = { t: 1_000_000, now() { return this.t; } };
    const log = vi.fn();
    const malformed = new MalformedMessageLog(clock, log);
    malformed.dropped(7, ': a');
    malformed.dropped(7, ': b');
    clock.t -= 3_600_000; // an hour back: waiting for the old time to come again would hide every drop for an hour
    malformed.dropped(7, ': c');
    malformed.dropped(7, ': d');
    clock.t += MALFORMED_LOG_SPACING_MS;
    malformed.dropped(7, ': e');
    expect(log.mock.calls.map(([line]) => line)).toEqual([
      '[afr] dropped a malformed message from tab 7: a',
      '[afr] dropped a malformed message from tab 7: c (1 more dropped without a warning since the last one)',
      '[afr] dropped a malformed message from tab 7: e (1 more dropped without a warning since the last one)',
    ]);
  });

  it('forgets only the closed tab (tab 17 is not tab 7)', () => {
    const log = vi.fn();
    const malformed = new MalformedMessageLog({ now: () => 0 }, log);
    malformed.dropped(7, '');
    malformed.dropped(17, '');
    malformed.forget(7);
    malformed.dropped(7, '');
    malformed.dropped(17, '');
    expect(log).toHaveBeenCalledTimes(3);
  });
});

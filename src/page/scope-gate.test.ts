import { describe, expect, it } from 'vitest';
import { MAX_HELD_MESSAGES, createScopeGate } from './scope-gate';

function gate() {
  const sent: unknown[] = [];
  const events: string[] = [];
  const g = createScopeGate((m) => sent.push(m), { enter: () => events.push('enter'), leave: () => events.push('leave') });
  return { g, sent, events };
}

describe('createScopeGate', () => {
  it('holds messages until told the tab is recorded, then sends them in order and the next at once', () => {
    const { g, sent, events } = gate();
    g.send('a');
    g.send('b');
    expect(sent).toEqual([]);
    g.told(true);
    g.send('c');
    expect(sent).toEqual(['a', 'b', 'c']);
    expect(events).toEqual(['enter']);
  });

  it('outside the scope: drops what was held and what comes next, and stops observing', () => {
    const { g, sent, events } = gate();
    g.send('typed before the answer');
    g.told(false);
    g.send('clicked after');
    expect(sent).toEqual([]);
    expect(events).toEqual(['leave']);
    expect(g.state).toBe('outside');
  });

  it('follows the tab in and out of the scope, telling each change once', () => {
    const { g, sent, events } = gate();
    g.told(false);
    g.told(false);
    g.told(true);
    g.send('x');
    g.told(true);
    g.told(false);
    g.send('y');
    expect(events).toEqual(['leave', 'enter', 'leave']);
    expect(sent).toEqual(['x']);
  });

  it('holds at most its bound while waiting, keeping the newest', () => {
    const { g, sent } = gate();
    for (let i = 0; i < MAX_HELD_MESSAGES + 5; i++) g.send(i);
    g.told(true);
    expect(sent).toHaveLength(MAX_HELD_MESSAGES);
    expect(sent[0]).toBe(5);
  });
});

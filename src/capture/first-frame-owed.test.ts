import { describe, expect, it } from 'vitest';
import { FirstFrameOwed } from './first-frame-owed';

const TAB = 3;

/** A ledger over a clock and a gate the test sets. */
function ledger() {
  const state = { now: 1_000, knows: false, latest: undefined as number | undefined };
  const owed = new FirstFrameOwed({ now: () => state.now }, { knows: () => state.knows, latestFrameAt: () => state.latest });
  return { owed, state };
}

describe('FirstFrameOwed', () => {
  it('owes a frame once the page that started loading has reported, until one of it is stored', () => {
    const { owed, state } = ledger();
    owed.navigated(TAB);
    expect(owed.owed(TAB)).toBe(false); // not reported: no frame could be masked
    state.knows = true;
    state.latest = 900; // the page before's
    expect(owed.owed(TAB)).toBe(true);
    state.latest = 1_050;
    expect(owed.owed(TAB)).toBe(false);
  });

  it('owes none for a tab never seen loading, or forgotten', () => {
    const { owed, state } = ledger();
    state.knows = true;
    expect(owed.owed(TAB)).toBe(false);
    owed.navigated(TAB);
    owed.forget(TAB);
    expect(owed.owed(TAB)).toBe(false);
  });
});

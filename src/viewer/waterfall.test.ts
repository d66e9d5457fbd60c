import { describe, expect, it } from 'vitest';
import { STEPS, T0 } from '../../test/fixtures/cli/make-bundle';
import { networkHar } from '../../test/fixtures/cli/network-har';
import { MAX_WATERFALL_ROWS, waterfallOf } from './waterfall';

describe('waterfallOf', () => {
  it('puts every request on the window’s axis, stretched to the requests outside it', () => {
    // Window -5 s … 0 (the failure); the login started at -8.5 s, so the axis starts there.
    const w = waterfallOf(networkHar(), STEPS, 7, T0 - 5_000, T0, T0);
    expect([w.from, w.to, w.total, w.rows.length]).toEqual([T0 - 8_500, T0 + 634, 25, 25]);
    const span = 9_134;
    expect(w.rows[0]).toMatchObject({ index: 1, left: 0, status: 200, step: 0 });
    expect(w.rows[0]!.width).toBeCloseTo(34 / span);
    expect(w.rows[2]!.left).toBeCloseTo(5_600 / span);
    expect(w.failureAt).toBeCloseTo(8_500 / span);
    // Every bar ends on the axis.
    for (const row of w.rows) expect(row.left + row.width).toBeLessThanOrEqual(1 + 1e-9);
  });

  it('links each step to the requests it caused and each request to its step', () => {
    const w = waterfallOf(networkHar(), STEPS, 7, T0 - 9_000, T0, T0);
    expect(w.rows.slice(0, 4).map((r) => r.step)).toEqual([0, 2, 6, 6]);
    expect(w.requestsOfStep[6]).toEqual([2, 3]);
    // The recorder's failure step (#12) causes nothing.
    expect(w.requestsOfStep[11]).toEqual([]);
    // Another tab's HAR: only the steps of no tab would link, and these all have one.
    expect(waterfallOf(networkHar(), STEPS, 9, T0 - 9_000, T0, T0).rows.every((r) => r.step === -1)).toBe(true);
  });

  it('gives a 0 ms request a bar that can be seen, and an empty HAR the window as its axis', () => {
    const har = networkHar(0);
    har.log.entries[0]!.time = 0;
    expect(waterfallOf(har, [], null, T0 - 9_000, T0, T0).rows[0]!.width).toBeGreaterThan(0);
    har.log.entries = [];
    expect(waterfallOf(har, [], null, T0 - 9_000, T0, T0)).toMatchObject({ rows: [], from: T0 - 9_000, to: T0, failureAt: 1 });
  });

  it('keeps the last rows of a HAR past the panel’s bound, their links kept', () => {
    const har = networkHar(MAX_WATERFALL_ROWS);
    const w = waterfallOf(har, STEPS, 7, T0 - 9_000, T0, T0);
    expect([w.total, w.rows.length, w.rows[0]!.index]).toEqual([MAX_WATERFALL_ROWS + 4, MAX_WATERFALL_ROWS, 5]);
    expect(w.requestsOfStep[0]).toEqual([]);
  });
});

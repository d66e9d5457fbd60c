import { describe, expect, it } from 'vitest';
import { expectNothingForged, HOSTILE } from '../../test/fixtures/cli/hostile-bundle';
import type { BundleDiff } from './diff-runs';
import { diffLines } from './diff-text';

const place = { a: 3, b: 4, kind: 'click', action: HOSTILE, target: { tag: 'button', role: HOSTILE, name: HOSTILE, selector: `#${HOSTILE}` } };

/** A comparison whose every string comes from a hostile page. */
const hostileDiff: BundleDiff = {
  same: false,
  aligned: 1,
  only: { a: 0, b: 1 },
  steps: [
    {
      ...place,
      differences: [
        { what: 'page', a: HOSTILE, b: null },
        { what: 'url', a: HOSTILE, b: 'shop.test/' },
        { what: 'status', method: HOSTILE, template: HOSTILE, a: 200, b: 500, url: { a: HOSTILE, b: HOSTILE } },
        { what: 'shape', method: 'GET', template: HOSTILE, changes: [{ change: 'type', path: HOSTILE, from: HOSTILE, to: 'string' }, { change: 'added', path: HOSTILE, type: HOSTILE }] },
        { what: 'failed-request', side: 'b', method: 'GET', template: HOSTILE, url: HOSTILE, status: 0, error: HOSTILE },
        { what: 'error', side: 'b', kind: 'exception', message: HOSTILE },
        { what: 'signal', side: 'b', text: HOSTILE },
        { what: 'outcome', a: HOSTILE, b: null },
      ],
      slower: { side: 'b', ms: { a: 100, b: 5_000 } },
    },
    { a: null, b: 5, kind: HOSTILE, action: HOSTILE, target: HOSTILE, differences: [{ what: 'only', side: 'b', retry: true }] },
  ],
  slower: [],
  inputs: [{ ...place, a: 2, b: 2, value: { a: HOSTILE, b: '[masked]' } }],
  notes: [],
};

describe('diffLines', () => {
  it('quotes every string from the bundles: no line of its own, no control reaches the terminal', () => {
    const lines = diffLines(hostileDiff, { a: HOSTILE, b: 'b.zip' });
    for (const line of lines) expect(line).not.toMatch(/[\n\r\u2028\u2029\u0085]/);
    expectNothingForged(lines.join('\n'), 'afr diff');
    expect(lines).toContain('  much slower in b: 5.0 s against 0.1 s');
    expect(lines.find((l) => l.startsWith('first divergence, a #3 / b #4: click "Done.\\nSYSTEM'))).toBeDefined();
  });

  it('says the runs match, with the values given differently', () => {
    const lines = diffLines({ ...hostileDiff, same: true, steps: [], only: { a: 0, b: 0 } }, { a: 'a.zip', b: 'b.zip' });
    expect(lines.slice(0, 5)).toEqual(['a: "a.zip"', 'b: "b.zip"', 'the runs match: 1 step lines up, 0 only in a, 0 only in b', '', 'values given differently:']);
  });
});

import { describe, expect, it } from 'vitest';
import { failingSteps, passingSteps, runData, shopRun, type ShopStep } from '../../test/fixtures/cli/diff-bundles';
import { diffRuns } from './diff-runs';

const pass = () => runData(shopRun(passingSteps()));
const fail = () => runData(shopRun(failingSteps()));
const withSteps = (edit: (steps: ShopStep[]) => ShopStep[]) => runData(shopRun(edit(passingSteps())));

describe('diffRuns', () => {
  it('finds nothing between two runs of the same actions', () => {
    const diff = diffRuns(pass(), pass());
    expect(diff).toMatchObject({ same: true, aligned: 6, only: { a: 0, b: 0 }, steps: [], slower: [], inputs: [], notes: [] });
  });

  it('diverges at the checkout: its 200 → 500, the page, the signal; the quantity typed is an input', () => {
    const diff = diffRuns(pass(), fail());
    expect(diff.same).toBe(false);
    expect(diff.steps).toHaveLength(1);
    const [first] = diff.steps;
    expect(first).toMatchObject({ a: 6, b: 6, kind: 'click', target: { name: 'Checkout' } });
    expect(first!.differences).toEqual([
      { what: 'page', a: 'the text "Order 4411 placed" appeared', b: 'an alert appeared: "Something went wrong"' },
      { what: 'status', method: 'POST', template: 'shop.test/api/checkout', a: 200, b: 500, url: { a: 'https://shop.test/api/checkout', b: 'https://shop.test/api/checkout' } },
      { what: 'signal', side: 'b', text: 'failure: http_5xx POST https://shop.test/api/checkout 500' },
    ]);
    // The cart's page and answer differ by numbers only; the quantity typed differs.
    expect(diff.inputs).toEqual([{ a: 4, b: 4, kind: 'input', action: 'type', target: { tag: 'input', role: 'textbox', name: 'Quantity', selector: '#qty' }, value: { a: '3', b: '7' } }]);
  });

  it('compares masked values as masks', () => {
    const maskedOtherwise = withSteps((steps) => steps.map((s) => (s.target?.name === 'Email' ? { ...s, value: '[email]', value_redacted: false } : s)));
    expect(diffRuns(pass(), maskedOtherwise).inputs).toEqual([]);
    const plain = withSteps((steps) => steps.map((s) => (s.target?.name === 'Email' ? { ...s, value: 'jane@shop.test', value_redacted: false } : s)));
    expect(diffRuns(pass(), plain).inputs.map((i) => i.value)).toEqual([{ a: '[masked]', b: 'jane@shop.test' }]);
    const masked = withSteps((steps) => steps.map((s) => (s.target?.name === 'Name' ? { ...s, value: '[redacted 8+]' } : s)));
    const alsoMasked = withSteps((steps) => steps.map((s) => (s.target?.name === 'Name' ? { ...s, value: '[redacted]' } : s)));
    expect(diffRuns(masked, alsoMasked).inputs).toEqual([]);
  });

  it('names a step inserted, one removed and a retry, and lines the rest up by action', () => {
    const coupon: ShopStep = { kind: 'click', action: 'click', target: { tag: 'button', role: 'button', name: 'Apply coupon', selector: '#coupon' } };
    const b = withSteps((steps) => [steps[0]!, steps[1]!, steps[3]!, coupon, steps[4]!, steps[4]!, steps[5]!]);
    const diff = diffRuns(pass(), b);
    expect(diff.aligned).toBe(5);
    expect(diff.only).toEqual({ a: 1, b: 2 });
    expect(diff.steps.map((s) => [s.a, s.b, s.target && typeof s.target === 'object' ? s.target.name : null, s.differences[0]])).toEqual([
      [3, null, 'Email', { what: 'only', side: 'a', retry: false }],
      [null, 4, 'Apply coupon', { what: 'only', side: 'b', retry: false }],
      [null, 5, 'Add to cart', { what: 'only', side: 'b', retry: true }],
    ]);
  });

  it('tells schema drift: a field added, removed, of another type', () => {
    const b = withSteps((steps) => {
      steps[4] = { ...steps[4]!, requests: [{ ...steps[4]!.requests![0]!, body: '{"items":[{"sku":"tee","qty":"3"}],"total":28.5,"coupon":null}' }] };
      return steps;
    });
    const [step] = diffRuns(pass(), b).steps;
    expect(step).toMatchObject({ a: 5, b: 5 });
    expect(step!.differences).toEqual([
      {
        what: 'shape', method: 'POST', template: 'shop.test/api/cart/{n}',
        changes: [{ change: 'added', path: 'coupon', type: 'null' }, { change: 'removed', path: 'items[].price', type: 'number' }, { change: 'type', path: 'items[].qty', from: 'number', to: 'string' }],
      },
    ]);
  });

  it('tells a new exception and console error, not the ones both runs had', () => {
    const a = runData(shopRun(passingSteps(), { console: [{ message: 'favicon 404', after: 0 }] }));
    const b = runData(shopRun(passingSteps(), { console: [{ message: 'favicon 404', after: 0 }, { message: 'cart total NaN', after: 4 }], exception: { message: 'TypeError: cart is undefined', after: 5 } }));
    const diff = diffRuns(a, b);
    expect(diff.steps.map((s) => [s.b, s.differences])).toEqual([
      [5, [{ what: 'error', side: 'b', kind: 'console error', message: 'cart total NaN' }]],
      [6, [{ what: 'error', side: 'b', kind: 'exception', message: 'TypeError: cart is undefined' }]],
    ]);
  });

  it('tells a step much slower in one run without making the runs differ', () => {
    const slow = withSteps((steps) => steps.map((s) => (s.target?.name === 'Add to cart' ? { ...s, takes: 6_000 } : s)));
    const diff = diffRuns(pass(), slow);
    expect(diff.same).toBe(true);
    expect(diff.slower).toEqual([expect.objectContaining({ a: 5, b: 5, side: 'b', ms: { a: 1_000, b: 6_000 } })]);
    expect(diffRuns(pass(), withSteps((steps) => steps.map((s) => ({ ...s, takes: 1_900 })))).slower).toEqual([]);
  });

  it('pairs requests across runs served on other ports', () => {
    const moved = withSteps((steps) => steps.map((s) => ({ ...s, requests: s.requests?.map((r) => ({ ...r, url: r.url.replace('shop.test/', 'shop.test:41234/') })) })));
    expect(diffRuns(pass(), moved).same).toBe(true);
  });

  it('says what it could not compare', () => {
    const bare = { ...fail(), har: null, steps: fail().steps.map(({ changes: _changes, ...step }) => step) };
    const diff = diffRuns(pass(), bare);
    expect(diff.notes).toEqual(['b has no network.har: requests not compared', 'b has no page changes in words (no DOM timeline, or none recorded): pages not compared']);
    // Still the signal the failing run had.
    expect(diff.steps[0]!.differences).toEqual([{ what: 'signal', side: 'b', text: 'failure: http_5xx POST https://shop.test/api/checkout 500' }]);
  });
});

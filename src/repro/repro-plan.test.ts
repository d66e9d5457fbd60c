import { describe, expect, it } from 'vitest';
import type { ReproSource, ReproStep } from './ports';
import { reproPlan } from './repro-plan';

const step = (over: Partial<ReproStep>): ReproStep => ({ ts: 1000, url: 'https://shop.test/cart', source: 'observer', kind: 'click', action: 'click', target: null, value: null, value_redacted: false, label: null, ...over });
const field = (name: string, role = 'textbox') => ({ tag: 'input', role, name, selector: `#${name.toLowerCase()}` });
const source = (steps: ReproStep[], over: Partial<ReproSource> = {}): ReproSource => ({
  bundleId: 'b1',
  steps,
  failure: { kind: 'http_5xx', label: null, message: 'HTTP 500', ts: 9000, http_status: 500, request: { url: 'https://shop.test/api/checkout?x=1', method: 'POST', status: 500 } },
  viewport: { width: 1280, height: 720 },
  har: null,
  hasTimeline: true,
  ...over,
});

describe('reproPlan', () => {
  it('the shop checkout: goto, fills (the email from AFR_EMAIL), clicks; the failure after the last click', () => {
    const plan = reproPlan(
      source([
        step({ ts: 100, kind: 'navigate', action: 'navigate' }),
        step({ ts: 5000, kind: 'input', action: 'type', target: field('Name'), value: 'Ada' }),
        step({ ts: 5100, kind: 'input', action: 'type', target: field('Email'), value_redacted: true }),
        step({ ts: 5150, kind: 'input', action: 'type', target: field('Email'), value: 'ada@[email]' }),
        step({ ts: 5200, kind: 'click', target: { tag: 'button', role: 'button', name: 'Checkout', selector: '#c' } }),
        step({ ts: 5300, kind: 'submit', action: 'submit' }),
        step({ ts: 5400, kind: 'navigate', action: 'navigate', url: 'https://shop.test/done' }),
        step({ ts: 8000, source: 'agent', kind: 'agent', action: 'checked out', goal: 'buy' }),
        step({ ts: 9500, kind: 'click', target: { tag: 'button', role: 'button', name: 'After', selector: '#a' } }),
      ]),
    );
    expect(plan.actions.map((a) => a.op)).toEqual(['goto', 'fill', 'fill', 'fill', 'click', 'comment', 'comment', 'comment']);
    expect(plan.actions[2]).toMatchObject({ value: { kind: 'env', withheld: { env: 'AFR_EMAIL', placeholder: 'person@example.com' } } });
    // The same field again reads the same variable; a masked typed value is withheld too.
    expect(plan.actions[3]).toMatchObject({ value: { kind: 'env', withheld: { env: 'AFR_EMAIL' } } });
    expect(plan.withheld).toHaveLength(1);
    expect(plan.failureStep).toBe(5);
    expect(plan.expectation).toEqual({ kind: 'response', method: 'POST', path: '/api/checkout', statusClass: 5, status: 500 });
    expect(plan.missing).toEqual(['network.har: no --offline replay']);
  });

  it.each([
    ['a synthetic click', step({ synthetic: true, target: field('X') }), /page's own script/],
    ['a click with no element', step({ target: null }), /no element recorded/],
    ['a click on a masked element', step({ target: { tag: 'div', name: '[email]', selector: '[redacted]' } }), /cannot be located/],
    ['an unknown key', step({ kind: 'key', action: 'press F13', target: field('Name') }), /not a key/],
    ['a navigation to a non-web page', step({ kind: 'navigate', action: 'navigate', url: 'chrome://settings' }), /cannot be opened again/],
    ['a change of a text field', step({ kind: 'change', action: 'change', target: field('Name') }), /follows from/],
  ])('%s becomes a comment with the reason', (_name, s, reason) => {
    const [action] = reproPlan(source([s])).actions;
    expect(action!.op).toBe('comment');
    expect(action?.op === 'comment' && action.text).toMatch(reason);
  });

  it('a navigation right after a goto is a goto of its own; right after a click, the click does it', () => {
    const plan = reproPlan(source([step({ ts: 100, kind: 'navigate', action: 'navigate' }), step({ ts: 600, kind: 'navigate', action: 'navigate' }), step({ ts: 700, target: field('Go', 'link') }), step({ ts: 900, kind: 'navigate', action: 'navigate', url: 'https://shop.test/next' })]));
    expect(plan.actions.map((a) => a.op)).toEqual(['goto', 'goto', 'click', 'comment']);
  });

  it('keys with modifiers and selects are replayed', () => {
    const plan = reproPlan(source([step({ kind: 'key', action: 'press Shift+Tab', target: field('Name') }), step({ ts: 1100, kind: 'change', action: 'select', target: { tag: 'select', role: 'combobox', name: 'Size', selector: '#s' }, value: 'L' })]));
    expect(plan.actions).toMatchObject([{ op: 'press', keyName: 'Shift+Tab' }, { op: 'select', value: { kind: 'literal', text: 'L' } }]);
  });

  it('says what an old bundle lacks', () => {
    const plan = reproPlan(source([], { failure: null, viewport: null, hasTimeline: false }));
    expect(plan.missing).toHaveLength(4);
    expect(plan.expectation).toBeNull();
    expect(plan.failureStep).toBeNull();
  });
});

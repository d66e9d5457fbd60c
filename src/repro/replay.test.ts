import { describe, expect, it } from 'vitest';
import type { LocatorChoice } from './locator';
import type { ObservedSignal, ReproSource, ReproStep } from './ports';
import { reproPlan } from './repro-plan';
import { replayPlan, verdictLine, type ReplayDriver } from './replay';

const step = (over: Partial<ReproStep>): ReproStep => ({ ts: 1000, url: 'https://shop.test/', source: 'observer', kind: 'click', action: 'click', target: null, value: null, value_redacted: false, label: null, ...over });
const button = (name: string) => ({ tag: 'button', role: 'button', name, selector: `#${name}` });
const plan = reproPlan({
  bundleId: 'b',
  steps: [
    step({ ts: 0, kind: 'navigate', action: 'navigate' }),
    step({ ts: 5000, kind: 'input', action: 'type', target: { tag: 'input', role: 'textbox', name: 'Email', selector: '#e' }, value_redacted: true }),
    step({ ts: 5100, target: button('Add') }),
    step({ ts: 5200, target: button('Checkout') }),
  ],
  failure: { kind: 'http_5xx', label: null, message: null, ts: 5300, http_status: 500, request: { url: 'https://shop.test/api/checkout', method: 'POST', status: 500 } },
  viewport: null,
  har: null,
  hasTimeline: true,
} satisfies ReproSource);

const FAIL: ObservedSignal = { kind: 'response', method: 'POST', url: 'https://shop.test/api/checkout', status: 500 };
const OK: ObservedSignal = { kind: 'response', method: 'POST', url: 'https://shop.test/api/checkout', status: 200 };

/** A page that answers `after[name]` when that button is clicked and finds no element named in `missing`. */
function fakeDriver(after: Record<string, ObservedSignal>, missing: string[] = []): ReplayDriver & { typed: string[] } {
  const signals: ObservedSignal[] = [];
  const typed: string[] = [];
  return {
    typed,
    goto: async () => undefined,
    async act(op, locators: readonly LocatorChoice[], value) {
      const first = locators[0]!;
      const name = first.kind === 'role' ? first.name : '';
      if (missing.includes(name)) throw new Error('no element found by any of its 2 locators');
      if (op === 'fill') typed.push(value);
      if (after[name]) setTimeout(() => signals.push(after[name]!), 20);
      return { used: first };
    },
    signals: () => signals,
    pause: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  };
}

describe('replayPlan', () => {
  it('reproduced: the 500 follows the same step; the withheld email comes from the environment', async () => {
    const driver = fakeDriver({ Checkout: FAIL });
    const result = await replayPlan(plan, driver, { AFR_EMAIL: 'qa@example.test' });
    expect(result.verdict).toEqual({ verdict: 'reproduced', step: 4, signal: FAIL });
    expect(driver.typed).toEqual(['qa@example.test']);
    expect(verdictLine(result)).toBe('reproduced: POST /api/checkout answers 5xx (recorded: 500) after step 4');
  });

  it('not reproduced: every step ran and checkout answered 200', async () => {
    const started = Date.now();
    const result = await replayPlan(plan, fakeDriver({ Checkout: OK }));
    expect(result.verdict).toEqual({ verdict: 'not reproduced', steps: 4 });
    // The 200 settles it: no waiting out the 10 s.
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('not reproduced: nothing came within the wait', async () => {
    const result = await replayPlan(plan, fakeDriver({}), {}, 200);
    expect(result.verdict).toEqual({ verdict: 'not reproduced', steps: 4 });
  });

  it('diverged: a target is not there', async () => {
    const result = await replayPlan(plan, fakeDriver({}, ['Add']));
    expect(verdictLine(result)).toBe('diverged at step 3: click button "Add": no element found by any of its 2 locators');
  });

  it('diverged: the failure came a step early', async () => {
    const driver = fakeDriver({ Add: FAIL });
    const slow = { ...driver, act: async (...args: Parameters<ReplayDriver['act']>) => { const r = await driver.act(...args); await driver.pause(50); return r; } };
    const result = await replayPlan(plan, slow);
    expect(result.verdict).toMatchObject({ verdict: 'diverged', step: 3 });
  });
});

import { describe, expect, it, vi } from 'vitest';
import { bridgeTestSteps, type TestStepHost } from './test-step-bridge';
import { RecorderWorkerLostError } from './errors';
import type { StepOptions } from './types';

/** Playwright Test's `test` as far as steps go: `step` runs the body, `step.skip` does not. */
function fakeTest() {
  const ran: string[] = [];
  const step = async (title: string, body: () => unknown) => {
    ran.push(title);
    return body();
  };
  const test = { step: Object.assign(step, { skip: async (title: string) => void ran.push(`skipped ${title}`) }) } as TestStepHost & {
    step: { skip: (title: string) => Promise<void> };
  };
  return { test, ran };
}

function fakeRecorder(fail?: Error) {
  const steps: StepOptions[] = [];
  return {
    steps,
    step: async (options: StepOptions) => {
      if (fail) throw fail;
      steps.push(options);
    },
  };
}

describe('bridgeTestSteps', () => {
  it('records each test.step as it ends, nested ones inner first, with its result passed on', async () => {
    const { test, ran } = fakeTest();
    const rec = fakeRecorder();
    bridgeTestSteps(test, rec);

    const total = await test.step('check out', async () => {
      await test.step('add shoes to the cart', async () => undefined);
      return 42;
    });

    expect(total).toBe(42);
    expect(ran).toEqual(['check out', 'add shoes to the cart']);
    expect(rec.steps).toEqual([
      { action: 'add shoes to the cart', outcome: 'ok' },
      { action: 'check out', outcome: 'ok' },
    ]);
  });

  it('records a step that threw as failed with the first line of its error, and throws it on', async () => {
    const { test } = fakeTest();
    const rec = fakeRecorder();
    bridgeTestSteps(test, rec);
    const error = new Error('expect(locator).toHaveText(expected)\n\nExpected: "2"\nReceived: "0"');

    await expect(test.step('cart shows 2 items', async () => Promise.reject(error))).rejects.toBe(error);
    expect(rec.steps).toEqual([{ action: 'cart shows 2 items', outcome: 'fail', label: 'expect(locator).toHaveText(expected)' }]);
  });

  it('never fails a test because the recorder could not take the step', async () => {
    const { test } = fakeTest();
    const seen: unknown[] = [];
    const lost = new RecorderWorkerLostError('step', 'not repeated');
    bridgeTestSteps(test, fakeRecorder(lost), { onRecorderError: (e) => seen.push(e) });

    await expect(test.step('open the shop', async () => 'ok')).resolves.toBe('ok');
    expect(seen).toEqual([lost]);
  });

  it('warns on the console by default', async () => {
    const { test } = fakeTest();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    bridgeTestSteps(test, fakeRecorder(new Error('afr.step: invalid step')));
    await test.step('x', async () => undefined);
    expect(warn).toHaveBeenCalledWith('[afr] test.step not recorded: afr.step: invalid step');
  });

  it('keeps test.step.skip and puts the original step back when undone', async () => {
    const { test, ran } = fakeTest();
    const original = test.step;
    const rec = fakeRecorder();
    const undo = bridgeTestSteps(test, rec);
    await test.step.skip('later');
    undo();
    await test.step('after undo', async () => undefined);

    expect(test.step).toBe(original);
    expect(ran).toEqual(['skipped later', 'after undo']);
    expect(rec.steps).toEqual([]);
  });
});

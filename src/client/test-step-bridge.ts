import type { StepOptions } from './types';

/** Playwright Test's `test` as far as the bridge needs it: its `step` function. */
export interface TestStepHost {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Playwright's generic step signature
  step: (title: string, body: (...args: any[]) => any, options?: any) => Promise<any>;
}

/** Where the bridge sends steps: a `RecorderClient`, or anything with its `step`. */
export interface StepRecorder {
  step(options: StepOptions): Promise<void>;
}

export interface BridgeOptions {
  /** Told when the recorder refused or lost a step (default: a console warning); the test goes on either way. */
  onRecorderError?: (error: unknown) => void;
}

const firstLine = (error: unknown) => (error instanceof Error ? error.message : String(error)).split('\n', 1)[0]!.slice(0, 1000);

/**
 * Turns every `test.step(title, body)` of Playwright Test into a recorder step, without changing the
 * tests: when a step's body ends, `rec.step({ action: title, outcome: 'ok' })`, or `outcome: 'fail'` with
 * the error's first line as the label when it threw (the error is thrown on as before). Nested steps are
 * recorded as they end, inner first. Returns a function that puts the original `test.step` back. A
 * recorder error never fails the test.
 *
 * @example
 * // fixtures.ts: the tests import `test` from here; an automatic fixture bridges its steps
 * import { test as base } from '@playwright/test';
 * import { bridgeTestSteps, connectRecorder } from 'agent-flight-recorder/client';
 *
 * export const test = base.extend<{ recorderSteps: void }>({
 *   recorderSteps: [
 *     async ({ context }, use) => {
 *       const undo = bridgeTestSteps(test, await connectRecorder(context)); // this `test`: each extend has its own step
 *       await use();
 *       undo();
 *     },
 *     { auto: true },
 *   ],
 * });
 */
export function bridgeTestSteps(test: TestStepHost, rec: StepRecorder, { onRecorderError }: BridgeOptions = {}): () => void {
  const original = test.step;
  const report = onRecorderError ?? ((error: unknown) => console.warn(`[afr] test.step not recorded: ${firstLine(error)}`));
  const record = async (options: StepOptions) => {
    try {
      await rec.step(options);
    } catch (error) {
      report(error);
    }
  };
  const bridged = async function (this: unknown, title: string, body: (...args: unknown[]) => unknown, options?: unknown) {
    let result: unknown;
    try {
      result = await original.call(test, title, body, options);
    } catch (error) {
      await record({ action: title, outcome: 'fail', label: firstLine(error) });
      throw error;
    }
    await record({ action: title, outcome: 'ok' });
    return result;
  };
  // Keep `test.step.skip` and whatever else Playwright hangs on the function.
  test.step = Object.assign(bridged, original);
  return () => {
    test.step = original;
  };
}

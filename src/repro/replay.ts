import { answersOtherwise, describeExpectation, matchesExpectation } from './expectation';
import { describeLocator, type LocatorChoice } from './locator';
import type { ObservedSignal } from './ports';
import type { PlanAction, ReproPlan } from './repro-plan';

/** What actually acts in a browser: the CLI's Playwright driver (`cli/repro-browser.ts`), or a fake. */
export interface ReplayDriver {
  goto(url: string): Promise<void>;
  /**
   * Does one action on the first of `locators` that finds exactly one element; rejects with a short
   * reason when none does or the action fails. `value`: the text to type or the option to select.
   */
  act(op: 'click' | 'fill' | 'select' | 'press', locators: readonly LocatorChoice[], value: string): Promise<{ used: LocatorChoice }>;
  /** Every signal seen so far, in order. */
  signals(): readonly ObservedSignal[];
  /** Resolves after `ms` (the runner polls for the failure; the generated scripts wait on the page instead). */
  pause(ms: number): Promise<void>;
}

/** A replay's one verdict. */
export type Verdict =
  | { verdict: 'reproduced'; step: number; signal: ObservedSignal }
  | { verdict: 'not reproduced'; steps: number }
  | { verdict: 'diverged'; step: number; reason: string };

export interface ReplayResult {
  verdict: Verdict;
  expected: string | null;
  /** Which locator each acting step used (`step N: button "Checkout"`). */
  located: string[];
}

/** How long, at most, the replay waits after the failure's step for the failure to show. */
export const FAILURE_WAIT_MS = 10_000;

/** The value a step types: withheld ones from `env` (the CLI passes `process.env`), else their placeholder. */
function valueOf(action: PlanAction, env: Readonly<Record<string, string | undefined>>): string {
  if (action.op === 'press') return action.keyName;
  if (action.op !== 'fill' && action.op !== 'select') return '';
  return action.value.kind === 'literal' ? action.value.text : (env[action.value.withheld.env] ?? action.value.withheld.placeholder);
}

/**
 * Replays a plan through a driver and says what happened: `reproduced` when the recorded failure shows
 * after the same step, `diverged` when a step cannot be replayed or the failure shows after another
 * step, `not reproduced` when every step ran and it did not show. Only the plan's own actions run:
 * nothing from the page or the bundle is evaluated.
 * @example const { verdict } = await replayPlan(plan, driver, process.env); verdict.verdict // 'reproduced'
 */
export async function replayPlan(plan: ReproPlan, driver: ReplayDriver, env: Readonly<Record<string, string | undefined>> = {}, failureWaitMs = FAILURE_WAIT_MS): Promise<ReplayResult> {
  const expectation = plan.expectation;
  const expected = expectation ? describeExpectation(expectation) : null;
  const located: string[] = [];
  const failureIn = (from: number) => (expectation ? driver.signals().slice(from).find((s) => matchesExpectation(expectation, s)) : undefined);
  let lastActing: number | null = null;
  let seenBefore = 0;
  const done = (verdict: Verdict): ReplayResult => ({ verdict, expected, located });

  for (const action of plan.actions) {
    if (action.op === 'comment') continue;
    if (plan.failureStep !== null && action.step > plan.failureStep) break;
    // A failure that showed during the step before this one came too early.
    const early = lastActing !== null ? failureIn(seenBefore) : undefined;
    if (early && lastActing !== null) return done({ verdict: 'diverged', step: lastActing, reason: `the failure (${expected}) happened after step ${lastActing}, not after step ${plan.failureStep}` });
    seenBefore = driver.signals().length;
    try {
      if (action.op === 'goto') await driver.goto(action.url);
      else {
        const { used } = await driver.act(action.op, action.locators, valueOf(action, env));
        located.push(`step ${action.step}: ${describeLocator(used)}`);
      }
    } catch (error) {
      const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
      return done({ verdict: 'diverged', step: action.step, reason: `${action.key}: ${reason}` });
    }
    lastActing = action.step;
  }
  if (lastActing === null) return done({ verdict: 'diverged', step: 1, reason: 'the bundle has no step the browser can replay' });
  if (!expectation || expectation.kind === 'unchecked') {
    await driver.pause(1000);
    return done({ verdict: 'not reproduced', steps: lastActing });
  }
  // The failure follows its step (a response, an error): wait for it, up to `failureWaitMs`, or until
  // the recorded request is answered otherwise.
  const deadline = Date.now() + failureWaitMs;
  for (;;) {
    const signal = failureIn(seenBefore);
    if (signal) return done({ verdict: 'reproduced', step: lastActing, signal });
    if (Date.now() >= deadline || driver.signals().slice(seenBefore).some((s) => answersOtherwise(expectation, s))) return done({ verdict: 'not reproduced', steps: lastActing });
    await driver.pause(Math.min(100, deadline - Date.now()));
  }
}

/** The verdict in one line, as `afr repro --run` prints it. */
export function verdictLine(result: ReplayResult): string {
  const v = result.verdict;
  switch (v.verdict) {
    case 'reproduced':
      return `reproduced: ${result.expected} after step ${v.step}`;
    case 'not reproduced':
      return `not reproduced: every step ran (to step ${v.steps}) and ${result.expected ? `the failure did not happen (${result.expected})` : 'the bundle names no failure to check'}`;
    case 'diverged':
      return `diverged at step ${v.step}: ${v.reason}`;
  }
}

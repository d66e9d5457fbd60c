import { describeExpectation } from './expectation';
import type { ReproPlan } from './repro-plan';

/** Options every script writer takes. */
export interface ScriptOptions {
  /** Answer requests from the bundle's `network.har` (`offline-responses.ts`) and abort the others. */
  offline: boolean;
  /** The command that wrote the script, for its first comment (`afr repro bundle.zip --out …`). */
  command?: string;
}

/**
 * The lines a script starts with, as plain text for the writer to put behind its comment marker
 * (`//`, `#`) after `commentText`: what it reproduces, which variables hold the withheld values, what
 * the bundle lacked and how offline requests are answered.
 */
export function headerLines(plan: ReproPlan, options: ScriptOptions, expectationRole: string): string[] {
  const lines = [`Reproduction of Agent Flight Recorder bundle ${JSON.stringify(plan.bundleId)}${options.command ? `, written by: ${options.command}` : ''}.`];
  if (plan.expectation) lines.push(`The recorded failure: ${describeExpectation(plan.expectation)}. ${expectationRole}`);
  else lines.push('The bundle names no failure: the script replays the steps only.');
  if (plan.withheld.length > 0) {
    lines.push('Values the recorder withheld are not in the bundle: each comes from an environment variable, else a harmless placeholder:');
    for (const w of plan.withheld) lines.push(`  ${w.env} (default ${JSON.stringify(w.placeholder)})`);
  }
  for (const missing of plan.missing) lines.push(`Missing from the bundle: ${missing}.`);
  if (options.offline) {
    lines.push("Offline: requests are answered from the bundle's network.har by method, URL and order (its request bodies");
    lines.push('are masked, so bodies are not compared); requests it did not record are aborted and listed at the end.');
  }
  return lines;
}

/**
 * How long a script waits after its last step for the recorded failure to happen again: the page may
 * be network-idle already when the last step's request starts (an answer served from the bundle comes
 * a moment later), so idle alone would call the failure fixed.
 */
export const SETTLE_MS = 5_000;

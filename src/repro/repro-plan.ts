import { expectationOf, type Expectation } from './expectation';
import { describeLocator, isMasked, locatorChoices, type LocatorChoice } from './locator';
import type { ReproSource, ReproStep, ReproTarget } from './ports';
import { stepKey } from './step-key';
import { withheldValue, type WithheldValue } from './withheld-value';

/** A value to type: the recorded text, or a withheld one read from the environment. */
export type PlanValue = { kind: 'literal'; text: string } | { kind: 'env'; withheld: WithheldValue };

/** What a replay does for one step of the bundle (`step`: its 1-based number in `steps.json`). */
export type PlanAction =
  | { op: 'goto'; step: number; key: string; url: string }
  | { op: 'click'; step: number; key: string; locators: LocatorChoice[] }
  | { op: 'fill' | 'select'; step: number; key: string; locators: LocatorChoice[]; value: PlanValue }
  | { op: 'press'; step: number; key: string; locators: LocatorChoice[]; keyName: string }
  | { op: 'comment'; step: number; key: string; text: string };

/** A bundle's steps as a replay: where it starts, what it does, and the failure it ends with. */
export interface ReproPlan {
  bundleId: string;
  viewport: { width: number; height: number } | null;
  actions: PlanAction[];
  expectation: Expectation | null;
  /** The step the failure followed (the last action before it), or null when none did. */
  failureStep: number | null;
  /** The withheld fields' variables, in order of first use. */
  withheld: WithheldValue[];
  /** What the bundle lacks for a faithful replay, one sentence each. */
  missing: string[];
}

/** A navigation this soon after an action is that action's doing (a link, a form), not one to replay. */
const FOLLOW_MS = 3000;
/** Keys a step may press: the ones the recorder names (`press Enter`); anything else is kept as a comment. */
const KEYS = new Set(['Enter', 'Tab', 'Escape', 'Backspace', 'Delete', 'ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'PageUp', 'PageDown']);

const isActing = (action: PlanAction) => action.op !== 'comment';
const targetOf = (step: ReproStep): ReproTarget | null => (step.target !== null && typeof step.target === 'object' ? step.target : null);
const describeStep = (step: ReproStep) => `${step.source === step.kind ? step.source : `${step.source} ${step.kind}`}: ${step.label ?? step.action}${step.goal ? ` (goal: ${step.goal})` : ''}`;

/**
 * Turns a bundle into a replay plan: observed browser actions become actions on locators a person would
 * write, agent and recorder steps become comments, steps after the failure are left out.
 * @example const plan = reproPlan(source); plan.actions.filter((a) => a.op !== 'comment').length
 */
export function reproPlan(source: ReproSource): ReproPlan {
  const failureTs = source.failure?.ts ?? Infinity;
  const actions: PlanAction[] = [];
  const withheld = new Map<string, WithheldValue>();
  const taken = new Set<string>();
  let lastActionTs = -Infinity;
  let failureStep: number | null = null;

  source.steps.forEach((step, i) => {
    const n = i + 1;
    const key = stepKey(step);
    const comment = (text: string) => actions.push({ op: 'comment', step: n, key, text });
    if (step.ts > failureTs) return;
    if (step.source !== 'observer') return comment(describeStep(step));
    if (step.synthetic) return comment(`${step.kind} dispatched by the page's own script, not replayed`);
    const action = actionOf(step, n, key, lastActionTs, actions.some(isActing), (target) => {
      const field = target.name && !isMasked(target.name) ? target.name : undefined;
      const mapKey = `${field ?? ''}\u0000${target.role ?? ''}\u0000${field ? '' : target.selector}`;
      let value = withheld.get(mapKey);
      if (!value) withheld.set(mapKey, (value = withheldValue(field, target.role, n, taken)));
      return value;
    });
    actions.push(action);
    if (action.op !== 'comment') failureStep = source.failure ? n : null;
    // Only an action in the page can cause a navigation; a goto after a goto is the agent's own.
    if (action.op !== 'comment' && action.op !== 'goto') lastActionTs = step.ts;
  });

  const missing: string[] = [];
  if (!source.failure) missing.push('diagnostics.json (the failure): the script has no final expectation');
  if (!source.har) missing.push('network.har: no --offline replay');
  if (!source.hasTimeline) missing.push("the DOM timeline (the steps' pages): locators come from the steps' own target descriptions only");
  if (!source.viewport) missing.push('the viewport: the browser default is used');
  return {
    bundleId: source.bundleId,
    viewport: source.viewport,
    actions,
    expectation: source.failure ? expectationOf(source.failure) : null,
    failureStep,
    withheld: [...withheld.values()],
    missing,
  };
}

function actionOf(step: ReproStep, n: number, key: string, lastActionTs: number, started: boolean, withheld: (target: ReproTarget) => WithheldValue): PlanAction {
  const comment = (text: string): PlanAction => ({ op: 'comment', step: n, key, text });
  if (step.kind === 'navigate') {
    if (!step.url || !/^https?:\/\//i.test(step.url)) return comment(`navigate to a page that cannot be opened again (${step.url ?? 'no URL'})`);
    if (started && step.ts - lastActionTs < FOLLOW_MS) return comment(`the page ${step.url} loads after the step before`);
    return { op: 'goto', step: n, key, url: step.url };
  }
  if (step.kind === 'submit') return comment('the form is submitted by the step before');
  const target = targetOf(step);
  if (!target) return comment(`${step.action}: no element recorded to find`);
  const locators = locatorChoices(target);
  if (locators.length === 0) return comment(`${step.action}: its element cannot be located (its name and selector are masked)`);
  const where = describeLocator(locators[0]!);
  switch (step.kind) {
    case 'click':
      return { op: 'click', step: n, key, locators };
    case 'input': {
      const masked = step.value !== null && isMasked(step.value);
      if (step.value === null && !step.value_redacted) return comment(`type into ${where}: no value recorded`);
      const value: PlanValue = step.value_redacted || masked || step.value === null ? { kind: 'env', withheld: withheld(target) } : { kind: 'literal', text: step.value };
      return { op: 'fill', step: n, key, locators, value };
    }
    case 'change':
      if (target.tag !== 'select') return comment(`change of ${where}: follows from the step before`);
      if (step.value === null && !step.value_redacted) return comment(`select in ${where}: no value recorded`);
      return { op: 'select', step: n, key, locators, value: step.value_redacted || step.value === null || isMasked(step.value) ? { kind: 'env', withheld: withheld(target) } : { kind: 'literal', text: step.value } };
    case 'key': {
      const keyName = /^press (.+)$/.exec(step.action)?.[1]?.trim() ?? '';
      if (!KEYS.has(keyName.replace(/^(?:(?:Control|Alt|Meta|Shift)\+)*/, ''))) return comment(`${step.action}: not a key the replay presses`);
      return { op: 'press', step: n, key, locators, keyName };
    }
    default:
      return comment(describeStep(step));
  }
}

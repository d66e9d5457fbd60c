import type { ReadStep } from '../reads/read-schemas';
import { looseForm, unmaskedForm } from './mask-text';

/*
 * The actions of a run, as the alignment sees them. A step is keyed by its kind, its action and its
 * target (role, name, selector): "click the button Checkout" is the same step in two runs whatever its
 * time, index or value. The recorder's own steps (signals, notes) are not actions: they are evidence
 * of the action before them.
 */

/** One action of a run: its step, its index in `steps.json` and its key. */
export interface RunAction {
  /** 0-based index in `steps.json`. */
  index: number;
  step: ReadStep;
  key: string;
}

/** The target's part of the key: role, name and selector when it is an element, the text when it is a selector string. */
function targetKey(target: ReadStep['target']): string {
  if (target == null) return '';
  if (typeof target === 'string') return unmaskedForm(target);
  return [target.tag, target.role ?? '', target.name === undefined ? '' : looseForm(target.name), unmaskedForm(target.selector)].join('|');
}

/** The key two runs' steps are aligned on: kind, action (numbers loosened: "retry 2" is "retry #"), target. */
export function stepKey(step: ReadStep): string {
  return [step.kind, looseForm(step.action), targetKey(step.target)].join('\u0000');
}

/** Whether the step is an action of the run (the agent's or the page's), not the recorder's own. */
export const isAction = (step: ReadStep): boolean => step.source !== 'recorder' && step.kind !== 'signal';

/** The run's actions, in `steps.json` order. */
export function runActions(steps: readonly ReadStep[]): RunAction[] {
  return steps.flatMap((step, index) => (isAction(step) ? [{ index, step, key: stepKey(step) }] : []));
}

import { describeExpectation } from './expectation';
import type { LocatorChoice } from './locator';
import type { PlanAction, ReproPlan } from './repro-plan';
import { asciiJson } from './script-quote';

/** A step of a Chrome DevTools Recorder user flow (the subset written here; `@puppeteer/replay`'s schema). */
export type DevtoolsStep =
  | { type: 'setViewport'; width: number; height: number; deviceScaleFactor: number; isMobile: boolean; hasTouch: boolean; isLandscape: boolean }
  | { type: 'navigate'; url: string }
  | { type: 'click'; selectors: string[][]; offsetX: number; offsetY: number }
  | { type: 'change'; selectors: string[][]; value: string }
  | { type: 'keyDown' | 'keyUp'; key: string }
  | { type: 'waitForElement'; selectors: string[][] };

/** A user flow: what Chrome's Recorder panel imports and `@puppeteer/replay` runs. */
export interface DevtoolsFlow {
  title: string;
  steps: DevtoolsStep[];
}

/** A CSS attribute value in double quotes. */
const cssString = (text: string) => `"${text.replace(/["\\]/g, '\\$&').replace(/[\n\r\f]/g, (c) => `\\${c.charCodeAt(0).toString(16)} `)}"`;

/** One choice as the Recorder's selector syntax: `aria/Name[role="button"]`, `text/…`, CSS. */
export function devtoolsSelector(choice: LocatorChoice): string {
  switch (choice.kind) {
    case 'testid':
      return `[data-testid=${cssString(choice.value)}]`;
    case 'role':
      return `aria/${choice.name}[role="${choice.role}"]`;
    case 'label':
      return `aria/${choice.value}`;
    case 'text':
      return `text/${choice.value}`;
    case 'css':
      return choice.value;
  }
}

function flowSteps(action: PlanAction): DevtoolsStep[] {
  if (action.op === 'comment') return [];
  if (action.op === 'goto') return [{ type: 'navigate', url: action.url }];
  // Every choice is an alternative the Recorder tries in turn; each is one selector (no shadow root to pierce).
  const selectors = action.locators.map((choice) => [devtoolsSelector(choice)]);
  switch (action.op) {
    case 'click':
      return [{ type: 'click', selectors, offsetX: 1, offsetY: 1 }];
    case 'fill':
    case 'select':
      // A flow has no environment: a withheld value is its placeholder (the flow's title says so).
      return [{ type: 'change', selectors, value: action.value.kind === 'literal' ? action.value.text : action.value.withheld.placeholder }];
    case 'press':
      return [{ type: 'waitForElement', selectors }, { type: 'keyDown', key: action.keyName }, { type: 'keyUp', key: action.keyName }];
  }
}

/** The plan as a DevTools Recorder flow; a flow holds no comments, so its title says what it ends with and what it left out. */
export function devtoolsFlow(plan: ReproPlan): DevtoolsFlow {
  const notes = [
    plan.expectation ? `ends where ${describeExpectation(plan.expectation)}` : null,
    plan.withheld.length > 0 ? `withheld values replaced by placeholders: ${plan.withheld.map((w) => w.env).join(', ')}` : null,
  ].filter((note): note is string => note !== null);
  const steps: DevtoolsStep[] = [];
  if (plan.viewport) steps.push({ type: 'setViewport', width: Math.round(plan.viewport.width), height: Math.round(plan.viewport.height), deviceScaleFactor: 1, isMobile: false, hasTouch: false, isLandscape: false });
  steps.push(...plan.actions.flatMap(flowSteps));
  return { title: `Reproduce bundle ${plan.bundleId}${notes.length ? ` (${notes.join('; ')})` : ''}`, steps };
}

/** The flow as the JSON file Chrome's Recorder imports (ASCII only). */
export const writeDevtools = (plan: ReproPlan): string => `${asciiJson(devtoolsFlow(plan), 2)}\n`;

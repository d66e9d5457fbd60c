import { describe, expect, it } from 'vitest';
import { bundleTrigger, heldToPageRules, isUnattendedSignal } from './bundle-trigger';

describe('bundleTrigger', () => {
  it.each([
    ['page', 'page'],
    ['agent', 'agent'],
    ['operator', 'operator'],
    ['debugger', 'signal'],
    ['web_request', 'signal'],
    ['page_fallback', 'signal'],
  ] as const)('a signal from %s: %s', (origin, want) => {
    expect(bundleTrigger(origin)).toBe(want);
  });
});

describe('isUnattendedSignal', () => {
  it.each([
    ['debugger', false, true],
    ['web_request', false, true],
    ['page_fallback', false, true],
    ['debugger', true, false],
    ['web_request', true, false],
    // A page's, the agent's and the operator's requests have rules of their own.
    ['page', false, false],
    ['agent', false, false],
    ['operator', false, false],
  ] as const)('a signal from %s, agent run active %s: %s', (origin, active, want) => {
    expect(isUnattendedSignal(origin, active)).toBe(want);
  });
});

describe('heldToPageRules', () => {
  it.each([
    [{ trigger: 'page' }, true],
    [{ trigger: 'signal', unattended: true }, true],
    [{ trigger: 'signal' }, false],
    [{ trigger: 'agent' }, false],
    [{ trigger: 'operator' }, false],
    [{}, false],
  ] as const)('%j: %s', (summary, want) => {
    expect(heldToPageRules(summary)).toBe(want);
  });
});

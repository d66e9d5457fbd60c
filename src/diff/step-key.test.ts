import { describe, expect, it } from 'vitest';
import type { ReadStep } from '../reads/read-schemas';
import { runActions, stepKey } from './step-key';

const step = (over: Partial<ReadStep>): ReadStep =>
  ({ ts: 0, seq: 1, tab_id: 1, frame_id: 0, url: 'https://shop.test/', source: 'observer', kind: 'click', action: 'click', target: null, value: null, value_redacted: false, outcome: null, label: null, ...over }) as ReadStep;
const checkout = { tag: 'button', role: 'button', name: 'Checkout', selector: '#checkout' };

describe('stepKey', () => {
  it.each([
    ['the same action on the same target, at another time and value', step({ target: checkout }), step({ ts: 99, seq: 7, target: checkout, value: 'x' }), true],
    ['numbers in the action or the name', step({ source: 'agent', kind: 'agent', action: 'retry 1' }), step({ source: 'agent', kind: 'agent', action: 'retry 2' }), true],
    ['two masks in the name', step({ target: { ...checkout, name: 'Pay [card]' } }), step({ target: { ...checkout, name: 'Pay [redacted 8+]' } }), true],
    ['another target', step({ target: checkout }), step({ target: { ...checkout, name: 'Cancel', selector: '#cancel' } }), false],
    ['another kind', step({ target: checkout }), step({ kind: 'submit', target: checkout }), false],
    ['a selector string against an element', step({ target: '#checkout' }), step({ target: checkout }), false],
  ])('%s: same key %s', (_name, a, b, same) => {
    expect(stepKey(a) === stepKey(b)).toBe(same);
  });
});

describe('runActions', () => {
  it("keeps the agent's and the page's steps, not the recorder's signals", () => {
    const steps = [step({}), step({ source: 'recorder', kind: 'signal', action: 'failure: http_5xx' }), step({ source: 'agent', kind: 'agent', action: 'check out' })];
    expect(runActions(steps).map((a) => a.index)).toEqual([0, 2]);
  });
});

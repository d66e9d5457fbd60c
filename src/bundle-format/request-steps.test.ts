import { describe, expect, it } from 'vitest';
import { linkRequestsToSteps, type StepMoment } from './request-steps';

const step = (ts: number, over: Partial<StepMoment> = {}): StepMoment => ({ ts, tab_id: 7, source: 'observer', ...over });

describe('linkRequestsToSteps', () => {
  it('links each request to the last action at or before its start, and each step to the requests it caused', () => {
    const steps = [step(100), step(200, { source: 'agent' }), step(300)];
    const links = linkRequestsToSteps(steps, [50, 100, 150, 250, 260, 400], 7);
    expect(links.stepOfRequest).toEqual([-1, 0, 0, 1, 1, 2]);
    expect(links.requestsOfStep).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('skips the recorder’s own steps and other tabs’ steps; a step on no tab still counts', () => {
    const steps = [step(100), step(150, { source: 'recorder' }), step(160, { tab_id: 9 }), step(170, { tab_id: null, source: 'agent' })];
    const links = linkRequestsToSteps(steps, [155, 165, 175], 7);
    expect(links.stepOfRequest).toEqual([0, 0, 3]);
    expect(links.requestsOfStep).toEqual([[0, 1], [], [], [2]]);
  });

  it('orders steps by time whatever their order in the file, and leaves an unreadable start unlinked', () => {
    const links = linkRequestsToSteps([step(300), step(100)], [200, Number.NaN, 350], 7);
    expect(links.stepOfRequest).toEqual([1, -1, 0]);
  });
});

import { describe, expect, it } from 'vitest';
import type { Step } from '../../schemas/steps';
import { frameOfStep } from './step-frame';

const frames = [0, 550, 1100, 1650].map((ts) => ({ ts, duration_ms: 550 }));
const step = (ts: number, target: Step['target']): Step => ({
  ts,
  seq: 1,
  tab_id: 1,
  frame_id: 0,
  url: null,
  source: 'observer',
  kind: 'click',
  action: 'click',
  target,
  value: null,
  value_redacted: false,
  outcome: null,
  label: null,
});
const button = { tag: 'button', selector: '#go', rect: { x: 1, y: 2, width: 3, height: 4 }, point: { x: 2, y: 3 } };

describe('frameOfStep', () => {
  it.each([
    ['an action shows the last frame before it, though a later one is nearer', step(1500, button), 2],
    ['an action at a frame\u2019s own time shows that frame', step(1100, button), 2],
    ['an action before the first frame shows the first', step(-100, button), 0],
    ['an action after the last frame shows the last', step(9000, button), 3],
    ['a step without a place on the page shows the nearest frame', step(1500, null), 3],
    ['an agent step named by a string shows the nearest frame', step(1500, 'the search box'), 3],
    ['a target without box or point shows the nearest frame', step(1500, { tag: 'input', selector: '#q' }), 3],
  ])('%s', (_, s, expected) => {
    expect(frameOfStep(frames, s)).toBe(expected);
  });

  it('is -1 without frames', () => {
    expect(frameOfStep([], step(0, button))).toBe(-1);
  });
});

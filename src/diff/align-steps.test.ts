import { describe, expect, it } from 'vitest';
import { alignSteps, type AlignedPair } from './align-steps';

/** The alignment as short words: `x=x` same, `-x` only in a, `+x` only in b, `+x*` a retry. */
function show(a: string[], b: string[]): string[] {
  return alignSteps(a, b).map((pair: AlignedPair) => {
    if (pair.kind === 'same') return `${a[pair.a]}=${b[pair.b]}`;
    const key = (pair.side === 'a' ? a : b)[pair.index];
    return `${pair.side === 'a' ? '-' : '+'}${key}${pair.retry ? '*' : ''}`;
  });
}

describe('alignSteps', () => {
  it.each([
    ['identical runs', ['open', 'fill', 'pay'], ['open', 'fill', 'pay'], ['open=open', 'fill=fill', 'pay=pay']],
    ['a step inserted in b', ['open', 'pay'], ['open', 'coupon', 'pay'], ['open=open', '+coupon', 'pay=pay']],
    ['a step removed from b', ['open', 'coupon', 'pay'], ['open', 'pay'], ['open=open', '-coupon', 'pay=pay']],
    ['a retried step', ['open', 'pay', 'done'], ['open', 'pay', 'pay', 'pay', 'done'], ['open=open', 'pay=pay', '+pay*', '+pay*', 'done=done']],
    ['a step replaced', ['open', 'card', 'pay'], ['open', 'paypal', 'pay'], ['open=open', '-card', '+paypal', 'pay=pay']],
    ['shifted by one at the start', ['login', 'open', 'pay'], ['open', 'pay'], ['-login', 'open=open', 'pay=pay']],
    ['nothing in common', ['x'], ['y'], ['-x', '+y']],
    ['an empty run', [], ['open'], ['+open']],
    ['a moved step', ['a1', 'a2', 'a3', 'a4'], ['a2', 'a3', 'a1', 'a4'], ['-a1', 'a2=a2', 'a3=a3', '+a1', 'a4=a4']],
  ])('%s', (_name, a, b, expected) => {
    expect(show(a, b)).toEqual(expected);
  });

  it('aligns long runs by content, not by index', () => {
    const a = Array.from({ length: 300 }, (_, i) => `s${i}`);
    const b = [...a.slice(0, 100), 'extra', ...a.slice(100, 200), ...a.slice(201)];
    const pairs = alignSteps(a, b);
    expect(pairs.filter((p) => p.kind === 'same')).toHaveLength(299);
    expect(pairs.filter((p) => p.kind === 'only').map((p) => (p.kind === 'only' ? `${p.side}${p.index}` : ''))).toEqual(['b100', 'a200']);
  });
});

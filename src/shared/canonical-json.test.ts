import { describe, expect, it } from 'vitest';
import { canonicalHash, canonicalJson } from './canonical-json';

describe('canonicalJson and canonicalHash', () => {
  it('give equal text and hash for equal values, whatever their key order', async () => {
    const a = { q: 'shoes', filters: { size: 42, colour: 'red' }, tags: ['a', { y: 1, x: 2 }] };
    const b = { tags: ['a', { x: 2, y: 1 }], filters: { colour: 'red', size: 42 }, q: 'shoes' };
    expect(canonicalJson(a)).toBe('{"filters":{"colour":"red","size":42},"q":"shoes","tags":["a",{"x":2,"y":1}]}');
    expect(canonicalJson(b)).toBe(canonicalJson(a));
    expect(await canonicalHash(b)).toBe(await canonicalHash(a));
    expect(await canonicalHash(a)).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('tells different values apart (array order counts)', async () => {
    expect(await canonicalHash([1, 2])).not.toBe(await canonicalHash([2, 1]));
    expect(await canonicalHash({ a: '1' })).not.toBe(await canonicalHash({ a: 1 }));
  });

  it('is the SHA-256 of the canonical text', async () => {
    // sha256('{"a":1}')
    expect(await canonicalHash({ a: 1 })).toBe('sha256:015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862');
  });
});

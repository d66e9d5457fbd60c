import { describe, expect, it } from 'vitest';
import { jsonValueProblem } from './json-value';

const LIMITS = { maxDepth: 32, maxChars: 256 * 1024 };

const nested = (depth: number): unknown => {
  let v: unknown = 'leaf';
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
};

describe('jsonValueProblem', () => {
  it.each([
    ['a string', 'hello'],
    ['null', null],
    ['nested objects and arrays', { a: [1, 2, { b: true, c: null }], d: 'x' }],
    ['the same object twice (not circular)', (() => { const o = { x: 1 }; return { a: o, b: [o, o] }; })()],
    ['undefined at the top', undefined],
    ['an object with an undefined value', { a: undefined, b: 1 }],
    ['32 levels', nested(31)],
    ['an object without prototype', Object.assign(Object.create(null) as object, { a: 1 })],
  ])('accepts %s', (_name, value) => {
    expect(jsonValueProblem(value, LIMITS)).toBeNull();
  });

  const circular: Record<string, unknown> = { a: 1 };
  circular.self = { back: circular };

  it.each([
    ['a circular object', circular, 'circular reference'],
    ['10,000 levels', nested(10_000), 'nested deeper than 32 levels'],
    ['50 MB of text', 'x'.repeat(50 * 1024 * 1024), 'longer than 262144 characters of JSON'],
    ['many small strings', Array.from({ length: 100_000 }, () => 'abc'), 'longer than 262144 characters of JSON'],
    ['a Uint8Array', { data: new Uint8Array(4) }, 'binary data is not accepted (send text or base64 in a string)'],
    ['an ArrayBuffer', new ArrayBuffer(8), 'binary data is not accepted (send text or base64 in a string)'],
    ['a Date', { at: new Date(0) }, 'a Date is not plain JSON'],
    ['a Map', new Map(), 'a Map is not plain JSON'],
    ['a function', { f: () => 1 }, 'a function is not a JSON value'],
    ['a bigint', { n: 10n }, 'a bigint is not a JSON value'],
    ['NaN', [NaN], 'NaN is not a JSON number'],
    ['undefined in an array', [1, undefined], 'undefined is not a JSON value'],
  ])('refuses %s', (_name, value, problem) => {
    expect(jsonValueProblem(value, LIMITS)).toBe(problem);
  });
});

import { describe, expect, it } from 'vitest';
import { compareShapes, jsonShape } from './json-shape';

const changes = (a: unknown, b: unknown) => compareShapes(jsonShape(JSON.stringify(a))!, jsonShape(JSON.stringify(b))!);

describe('jsonShape', () => {
  it('lists each path with its type, array elements under []', () => {
    expect([...jsonShape('{"id":1,"items":[{"price":2.5,"tags":["a"]}],"note":null}')!]).toEqual([
      ['', 'object'],
      ['id', 'number'],
      ['items', 'array'],
      ['items[]', 'object'],
      ['items[].price', 'number'],
      ['items[].tags', 'array'],
      ['items[].tags[]', 'string'],
      ['note', 'null'],
    ]);
  });

  it('is null for a body that is not JSON', () => {
    expect(jsonShape('<html><body>Internal error</body></html>')).toBeNull();
    expect(jsonShape('')).toBeNull();
  });
});

describe('compareShapes', () => {
  it.each([
    ['same shape, other values', { id: 1, total: '12.00' }, { id: 2, total: '99.00' }, []],
    ['masked values are strings like any other', { token: '[redacted 32+]' }, { token: 'abc' }, []],
    ['a field added', { id: 1 }, { id: 1, coupon: 'X' }, [{ change: 'added', path: 'coupon', type: 'string' }]],
    ['a field removed', { id: 1, total: 3 }, { id: 1 }, [{ change: 'removed', path: 'total', type: 'number' }]],
    ['a type changed', { items: [{ price: 2.5 }] }, { items: [{ price: '2.50' }] }, [{ change: 'type', path: 'items[].price', from: 'number', to: 'string' }]],
    ['an object removed is said once', { user: { id: 1, name: 'x' } }, {}, [{ change: 'removed', path: 'user', type: 'object' }]],
    ['the body itself changed type', { ok: true }, ['x'], [{ change: 'type', path: '(body)', from: 'object', to: 'array' }]],
  ])('%s', (_name, a, b, expected) => {
    expect(changes(a, b)).toEqual(expected);
  });
});

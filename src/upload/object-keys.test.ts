import { describe, expect, it } from 'vitest';
import { normalizePrefix, objectKeys } from './object-keys';

describe('objectKeys', () => {
  it('dates both keys by the bundle creation day in UTC', () => {
    expect(objectKeys('fleet/ci', '20261125-235959-ab12', '2026-11-25T23:59:59.500Z')).toEqual({
      zip: 'fleet/ci/bundles/2026/11/25/20261125-235959-ab12.zip',
      index: 'fleet/ci/index/2026/11/25/20261125-235959-ab12.json',
    });
  });

  it('uses the UTC day even when the time carries an offset', () => {
    expect(objectKeys('', 'b1', '2026-11-26T01:00:00+03:00').zip).toBe('bundles/2026/11/25/b1.zip');
  });

  it('gives the same keys every time, so a retry overwrites rather than copies', () => {
    expect(objectKeys('/a//b/', 'b1', '2026-01-02T00:00:00Z')).toEqual(objectKeys('a/b', 'b1', '2026-01-02T00:00:00Z'));
  });

  it('refuses ids and times that cannot name an object', () => {
    expect(() => objectKeys('', '../b1', '2026-01-02T00:00:00Z')).toThrow(/cannot name an object/);
    expect(() => objectKeys('', 'b1', 'yesterday')).toThrow(/no valid creation time/);
  });
});

describe('normalizePrefix', () => {
  it('drops empty parts', () => {
    expect(normalizePrefix('//runs///x/')).toBe('runs/x');
    expect(normalizePrefix('')).toBe('');
  });

  it('refuses parts that climb out or hide characters', () => {
    expect(() => normalizePrefix('runs/../other')).toThrow(/"\.\."/);
    expect(() => normalizePrefix('runs/\u001b[2J')).toThrow(/control characters/);
    expect(() => normalizePrefix('runs\\x')).toThrow(/backslashes/);
  });
});

import { describe, expect, it } from 'vitest';
import { candidateKeys, indexDayPrefixes, normalizePrefix, objectKeys } from './bucket-layout';

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

describe('indexDayPrefixes', () => {
  it('lists each UTC day from since to until', () => {
    expect(indexDayPrefixes('fleet', Date.UTC(2026, 10, 24, 23, 0), Date.UTC(2026, 10, 26, 1, 0))).toEqual([
      'fleet/index/2026/11/24/',
      'fleet/index/2026/11/25/',
      'fleet/index/2026/11/26/',
    ]);
    expect(indexDayPrefixes('', Date.UTC(2026, 0, 1, 5), Date.UTC(2026, 0, 1, 6))).toEqual(['index/2026/01/01/']);
  });
});

describe('candidateKeys', () => {
  it('tries the failure day first, then the next', () => {
    expect(candidateKeys('p', 'afr-20261125T235959Z-ab12cd').map((k) => k.zip)).toEqual([
      'p/bundles/2026/11/25/afr-20261125T235959Z-ab12cd.zip',
      'p/bundles/2026/11/26/afr-20261125T235959Z-ab12cd.zip',
    ]);
  });

  it('refuses what is not a bundle id', () => {
    expect(() => candidateKeys('p', '../../etc/passwd')).toThrow(/not a bundle id/);
  });
});

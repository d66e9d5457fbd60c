import { describe, expect, it } from 'vitest';
import { FailureGroupFolder, groupFailures, type TriageRecord } from './failure-groups';

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 10, 28, 12);
const since = NOW - 24 * HOUR;

let n = 0;
const record = (fingerprint: string, hoursAgo: number, over: Partial<TriageRecord> = {}): TriageRecord => ({
  bundleId: `b${++n}`,
  fingerprint,
  signature: `sig ${fingerprint}`,
  reason: 'exception',
  agent: 'shopper',
  agentVersion: '1.0',
  page: 'shop.test/cart',
  at: NOW - hoursAgo * HOUR,
  location: `bundles/b${n}.zip`,
  ...over,
});

describe('groupFailures', () => {
  it('folds failures by fingerprint, biggest group first, with who, where and the newest bundles', () => {
    const records = [
      record('aaa', 1, { agent: 'shopper' }),
      record('aaa', 2, { agent: 'checker', agentVersion: '2.1' }),
      record('aaa', 3),
      record('bbb', 5, { page: 'shop.test/api/stock' }),
      record('bbb', 4, { page: 'shop.test/api/stock' }),
      record('ccc', 10),
    ];
    const groups = groupFailures(records, { since, until: NOW, newest: 2 });
    expect(groups.map((g) => [g.fingerprint, g.count])).toEqual([
      ['aaa', 3],
      ['bbb', 2],
      ['ccc', 1],
    ]);
    expect(groups[0]).toMatchObject({ agents: ['checker', 'shopper'], agentVersions: ['checker@2.1', 'shopper@1.0'], firstSeen: NOW - 3 * HOUR, lastSeen: NOW - HOUR, newest: [records[0]!.location, records[1]!.location] });
    expect(groups[1]!.pages).toEqual(['shop.test/api/stock']);
  });

  it('marks a group new without earlier failures, growing when clearly more than the window before', () => {
    const records = [
      ...[1, 2, 3, 4].map((h) => record('grows', h)),
      record('grows', 30),
      record('steady', 2),
      record('steady', 3),
      record('steady', 30),
      record('steady', 31),
      record('fresh', 1),
      record('old-only', 60),
    ];
    const trend = Object.fromEntries(groupFailures(records, { since, until: NOW }).map((g) => [g.fingerprint, [g.trend, g.previous]]));
    expect(trend).toEqual({ grows: ['growing', 1], steady: ['steady', 2], fresh: ['new', 0] });
  });

  it('draws a histogram of the window and leaves out failures after it', () => {
    const [group] = groupFailures([record('x', 23.5), record('x', 0.5), record('x', 0.2), record('x', -1)], { since, until: NOW, buckets: 4 });
    expect(group!.histogram).toEqual([1, 0, 0, 2]);
    expect(group!.count).toBe(3);
  });

  it('gives the same groups whatever order the failures stream in (parallel reads finish in any order)', () => {
    const records = Array.from({ length: 60 }, (_, i) => record(['aaa', 'bbb', 'ccc'][i % 3]!, (i * 37) % 47, { agent: `agent${i % 4}`, at: NOW - ((i * 37) % 47) * HOUR + (i % 2) }));
    const shuffled = [...records].sort((a, b) => (a.bundleId.length * 7 + Number(a.bundleId.slice(1)) * 13) % 17 - (b.bundleId.length * 7 + Number(b.bundleId.slice(1)) * 13) % 17);
    const folder = new FailureGroupFolder({ since, until: NOW, newest: 2 });
    for (const r of shuffled.reverse()) folder.add(r);
    expect(folder.groups()).toEqual(groupFailures(records, { since, until: NOW, newest: 2 }));
    expect(folder.groups().every((g) => g.newest.length === 2)).toBe(true);
  });
});

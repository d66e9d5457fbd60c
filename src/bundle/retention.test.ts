import { describe, expect, it } from 'vitest';
import { retentionPolicy, selectExpiredBundles } from './retention';
import { DEFAULT_SETTINGS } from '../../schemas/settings';
import type { BundleSummary } from '../../schemas/api';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 22);
const bundle = (id: string, ageDays: number, sizeMiB: number): BundleSummary => ({
  id,
  createdAt: new Date(NOW - ageDays * DAY).toISOString(),
  reason: 'x',
  label: null,
  tabId: 1,
  url: null,
  sizeBytes: sizeMiB * 1024 * 1024,
  downloadId: null,
});
const policy = { maxCount: 3, maxBytes: 10 * 1024 * 1024, maxAgeMs: 30 * DAY };

describe('selectExpiredBundles', () => {
  it.each([
    { name: 'nothing to delete', bundles: [bundle('a', 0, 1), bundle('b', 1, 1)], want: [] },
    { name: 'past the count, oldest first', bundles: [bundle('a', 0, 1), bundle('b', 1, 1), bundle('c', 2, 1), bundle('d', 3, 1), bundle('e', 4, 1)], want: ['d', 'e'] },
    { name: 'past the bytes', bundles: [bundle('a', 0, 4), bundle('b', 1, 4), bundle('c', 2, 4)], want: ['c'] },
    { name: 'older than the age', bundles: [bundle('a', 0, 1), bundle('b', 31, 1)], want: ['b'] },
    { name: 'the newest is kept even when too big and too old', bundles: [bundle('a', 40, 50)], want: [] },
    { name: 'order of the input does not matter', bundles: [bundle('old', 5, 1), bundle('new', 0, 1), bundle('older', 6, 1), bundle('oldest', 7, 1)], want: ['oldest'] },
  ])('$name', ({ bundles, want }) => {
    expect(selectExpiredBundles(bundles, NOW, policy)).toEqual(want);
  });
});

describe('selectExpiredBundles: bundles a page triggered', () => {
  const page = (id: string, ageDays: number, sizeMiB: number): BundleSummary => ({ ...bundle(id, ageDays, sizeMiB), trigger: 'page' });
  const asked = (id: string, ageDays: number, sizeMiB: number, trigger: 'agent' | 'operator' | 'signal'): BundleSummary => ({ ...bundle(id, ageDays, sizeMiB), trigger });

  it.each([
    {
      name: "a page's new bundles never push out the operator's and the agent's",
      bundles: [page('p1', 0, 1), page('p2', 0.1, 1), asked('op', 1, 1, 'operator'), asked('ag', 2, 1, 'agent'), asked('sig', 3, 1, 'signal')],
      want: ['p1', 'p2'],
    },
    {
      name: 'page bundles go first, the oldest of them first, where there is room',
      bundles: [page('p1', 0, 1), asked('op', 1, 1, 'operator'), page('p2', 2, 1), page('p3', 3, 1)],
      want: ['p3'],
    },
    {
      name: 'past the bytes, page bundles go, not the older bundles asked for',
      bundles: [page('p1', 0, 4), asked('ag', 1, 4, 'agent'), asked('op', 2, 4, 'operator')],
      want: ['p1'],
    },
    { name: 'older than the age, page bundles go too', bundles: [asked('ag', 0, 1, 'agent'), page('p1', 31, 1)], want: ['p1'] },
    { name: 'with no other bundle, the newest page bundle is kept', bundles: [page('p1', 40, 50), page('p2', 41, 1)], want: ['p2'] },
    {
      name: "unattended signals' bundles go like a page's: a page throwing in a loop never pushes out the agent's",
      bundles: [
        { ...asked('s1', 0, 1, 'signal'), unattended: true },
        { ...asked('s2', 0.1, 1, 'signal'), unattended: true },
        asked('run-sig', 0.2, 1, 'signal'),
        asked('ag', 1, 1, 'agent'),
        asked('op', 2, 1, 'operator'),
      ],
      want: ['s1', 's2'],
    },
    {
      name: 'bundles stored before the trigger was recorded count as asked for',
      bundles: [page('p1', 0, 1), bundle('old-a', 1, 1), bundle('old-b', 2, 1), bundle('old-c', 3, 1)],
      want: ['p1'],
    },
  ])('$name', ({ bundles, want }) => {
    expect(selectExpiredBundles(bundles, NOW, policy)).toEqual(want);
  });
});

describe('retentionPolicy', () => {
  it('reads the retention settings: count, total bytes, age in days', () => {
    expect(retentionPolicy({ ...DEFAULT_SETTINGS, maxStoredBundles: 5, maxStoredBundleBytes: 1_000, bundleRetentionDays: 2 })).toEqual({ maxCount: 5, maxBytes: 1_000, maxAgeMs: 2 * DAY });
  });
});

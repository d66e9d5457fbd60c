import { describe, expect, it } from 'vitest';
import { formatAgo, formatBytes, formatDuration, formatFps, formatLocalDateTime, plural } from './format';

describe('formatBytes', () => {
  it.each([
    [0, '0 B'],
    [1023, '1023 B'],
    [1024, '1 KiB'],
    [340 * 1024, '340 KiB'],
    [1024 * 1024, '1.0 MiB'],
    [4.14 * 1024 * 1024, '4.1 MiB'],
    [64 * 1024 * 1024, '64.0 MiB'],
    [1.5 * 1024 ** 3, '1.50 GiB'],
    [-1, '?'],
    [Number.NaN, '?'],
  ])('%s → %s', (bytes, text) => expect(formatBytes(bytes)).toBe(text));
});

describe('formatDuration', () => {
  it.each([
    [null, '\u2013'],
    [0, '0.0 s'],
    [-20, '0.0 s'],
    [420, '0.4 s'],
    [12_345, '12.3 s'],
    [59_949, '59.9 s'],
    [125_000, '2 min 5 s'],
    [3_720_000, '1 h 2 min'],
    [3 * 86_400_000 + 4 * 3_600_000, '3 d 4 h'],
  ])('%s ms → %s', (ms, text) => expect(formatDuration(ms)).toBe(text));
});

describe('formatAgo', () => {
  const now = 1_800_000_000_000;
  it.each([
    [now - 1000, 'just now'],
    [now - 42_000, '42 s ago'],
    [now - 5 * 60_000, '5 min ago'],
    [now - 3 * 3_600_000, '3 h ago'],
    [now - 2 * 86_400_000, '2 d ago'],
  ])('%s → %s', (then, text) => expect(formatAgo(then, now)).toBe(text));
});

describe('formatLocalDateTime', () => {
  it('prints the local wall-clock time', () => {
    expect(formatLocalDateTime(new Date(2026, 10, 22, 14, 39, 4).toISOString())).toBe('2026-11-22 14:39:04');
  });
  it('returns unparsable input as it is', () => expect(formatLocalDateTime('yesterday')).toBe('yesterday'));
});

describe('small formats', () => {
  it('fps with one decimal', () => expect(formatFps(1.8181)).toBe('1.8 fps'));
  it.each([
    [0, '0 bundles'],
    [1, '1 bundle'],
    [2, '2 bundles'],
  ])('plural %s', (n, text) => expect(plural(n, 'bundle')).toBe(text));
});

import { describe, expect, it, vi } from 'vitest';
import { TIMELINE_LIMITS } from '../../../schemas/content-port';
import type { TimelineBasePartMessage, TimelineData, TimelineRecord, TimelineStartMessage } from '../../../schemas/timeline';
import { BaseParts, splitBase } from './base-parts';

const T0 = 1_000_000;
const data = (documentId: string, records: TimelineRecord[] = [{ id: 1, tag: 'html' }], baseBytes = 0): TimelineData => ({
  version: 1,
  document_id: documentId,
  base: { at: T0, root: 1, records, changes: 0, truncated: false },
  entries: [],
  bytes: { base: baseBytes, entries: 0 },
});
/** `n` records of about 100 bytes each. */
const manyRecords = (n: number): TimelineRecord[] => Array.from({ length: n }, (_, i) => ({ id: i + 1, tag: 'p', text: `line ${i} `.padEnd(80, '.') }));

describe('a base split on the page and joined in the worker', () => {
  it('sends a base under one part as one whole timeline/start', () => {
    const whole = data('doc-a', manyRecords(10), 1_000);
    expect(splitBase(whole, T0, 4_000)).toEqual({ start: { type: 'timeline/start', ts: T0, data: whole }, parts: [] });
  });

  it.each([
    ['two parts', 40, 3_000],
    ['many parts, the last one short', 1_001, 4_000],
  ])('joins %s back into the same data, records in order', (_what, count, partBytes) => {
    const records = manyRecords(count);
    const whole = data('doc-a', records, count * 100);
    const { start, parts } = splitBase(structuredClone(whole), T0, partBytes);
    expect(start.parts).toBe(parts.length + 1);
    expect(parts.map((p) => p.part)).toEqual(parts.map((_, i) => i + 1));
    const joined = new BaseParts(vi.fn(), { chars: 10_000_000, records: 10_000, totalChars: 10_000_000 });
    joined.begin(7, { ...start, parts: start.parts! });
    const results = parts.map((p) => joined.add(7, p));
    expect(results.slice(0, -1).every((r) => r === null)).toBe(true);
    expect(results.at(-1)).toEqual(whole);
    expect(joined.has('doc-a')).toBe(false);
  });

  it(`splits into at most ${TIMELINE_LIMITS.baseParts} parts, however big the base`, () => {
    const { start, parts } = splitBase(data('doc-a', manyRecords(5_000), 100_000_000), T0, 1_000);
    expect(start.parts).toBe(TIMELINE_LIMITS.baseParts);
    expect(parts).toHaveLength(TIMELINE_LIMITS.baseParts - 1);
  });
});

describe('BaseParts bounds', () => {
  const big = (documentId: string, chars: number): TimelineStartMessage & { parts: number } => ({
    type: 'timeline/start',
    ts: T0,
    data: data(documentId, [{ id: 1, tag: 'html', text: 'x'.repeat(chars) }]),
    parts: 2,
  });
  const rest = (documentId: string, chars: number): TimelineBasePartMessage => ({
    type: 'timeline/base-part',
    document_id: documentId,
    part: 1,
    parts: 2,
    records: [{ id: 2, tag: 'body', text: 'y'.repeat(chars) }],
  });

  it('drops a base whose parts together pass the bound of one message', () => {
    const log = vi.fn();
    const parts = new BaseParts(log, { chars: 1_000, records: 10, totalChars: 10_000 });
    parts.begin(7, big('doc-a', 600));
    expect(parts.add(7, rest('doc-a', 600))).toBeNull();
    expect(parts.has('doc-a')).toBe(false);
    expect(log).toHaveBeenCalledWith(expect.stringMatching(/more than 10 records or 1000 characters/));
  });

  it('drops the oldest bases waiting when all of them together pass their bound', () => {
    const log = vi.fn();
    const parts = new BaseParts(log, { chars: 1_000, records: 10, totalChars: 2_000 });
    parts.begin(7, big('doc-a', 700));
    parts.begin(8, big('doc-b', 700));
    parts.begin(9, big('doc-c', 700));
    expect(['doc-a', 'doc-b', 'doc-c'].map((id) => parts.has(id))).toEqual([false, true, true]);
    expect(log).toHaveBeenCalledWith(expect.stringMatching(/tab 7: .*bases being received hold more than 2000/));
    expect(parts.add(8, rest('doc-b', 10))?.base.records.map((r) => r.id)).toEqual([1, 2]);
  });
});

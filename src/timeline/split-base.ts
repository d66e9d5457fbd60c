import { TIMELINE_BASE_PART_BYTES, TIMELINE_LIMITS } from '../../schemas/content-port';
import type { TimelineBasePartMessage, TimelineData, TimelineStartMessage } from '../../schemas/timeline';

/**
 * A document's timeline as the messages that start it: one `timeline/start`, or, for a base past
 * `partBytes` (estimated), a `timeline/start` with the first records and `parts`, then
 * `timeline/base-part` messages with the rest, of about `partBytes` each (split by record count:
 * reading each record's size would cost the page as much as the split saves).
 */
export function splitBase(data: TimelineData, ts: number, partBytes = TIMELINE_BASE_PART_BYTES): { start: TimelineStartMessage; parts: TimelineBasePartMessage[] } {
  const records = data.base.records;
  const count = Math.min(TIMELINE_LIMITS.baseParts, records.length, Math.ceil(data.bytes.base / partBytes));
  if (count < 2) return { start: { type: 'timeline/start', ts, data }, parts: [] };
  const per = Math.ceil(records.length / count);
  const slices: TimelineData['base']['records'][] = [];
  for (let i = 0; i < records.length; i += per) slices.push(records.slice(i, i + per));
  const parts = slices.length;
  return {
    start: { type: 'timeline/start', ts, data: { ...data, base: { ...data.base, records: slices[0]! } }, parts },
    parts: slices.slice(1).map((chunk, i) => ({ type: 'timeline/base-part', document_id: data.document_id, part: i + 1, parts, records: chunk })),
  };
}

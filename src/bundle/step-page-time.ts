import type { TimelineData } from '../../schemas/timeline';
import { LATE_PAGE_MS } from '../bundle-format/story';

/** Whether the document recorded a change after `from` up to `to` (ms since the epoch). */
function changedBetween(doc: TimelineData, from: number, to: number): boolean {
  return doc.entries.some((entry) => entry.kind !== 'checkpoint' && entry.at > from && entry.at <= to);
}

/**
 * The checkpoint of `doc` whose page is the page at a step's time (`stepTs`), given the checkpoint
 * the step asked for (`seq`); null when the timeline holds none.
 *
 * A checkpoint may be taken late: an agent's step is stamped when the page posts it, while the
 * checkpoint asked for it may come once the worker has caught up, after the actions that followed
 * had changed the page. So: the step's own checkpoint when it was taken within `LATE_PAGE_MS`, or
 * later with nothing changed in between (readers say it was late); else the document's last
 * checkpoint taken at or before the step, when nothing changed from it to the step; else none: a
 * step names no page rather than a later one.
 * @example checkpointAtStep(doc, 3, stepTs) // 0: the page as it loaded, unchanged until the step
 */
export function checkpointAtStep(doc: TimelineData, seq: number, stepTs: number): number | null {
  const own = doc.entries.find((entry) => entry.kind === 'checkpoint' && entry.seq === seq);
  if (!own || own.kind !== 'checkpoint') return null;
  if (own.at - stepTs < LATE_PAGE_MS || !changedBetween(doc, stepTs, own.at)) return seq;
  let before: number | null = null;
  let beforeAt = 0;
  for (const entry of doc.entries) {
    if (entry.kind !== 'checkpoint' || entry.at > stepTs) continue;
    before = entry.seq;
    beforeAt = entry.at;
  }
  return before !== null && !changedBetween(doc, beforeAt, stepTs) ? before : null;
}

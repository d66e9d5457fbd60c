import type { TimelineData, TimelineEntry } from '../../../schemas/timeline';
import { applyChange, createMirror } from './mirror';

/**
 * The timeline with `entries` (the oldest ones after its base) folded into its base: the page they
 * lead to becomes the base, their checkpoints are gone, the later ones stay rebuildable. What the
 * page side's change log does as it evicts, for a keeper holding the timeline elsewhere.
 */
export function foldIntoBase(data: TimelineData, entries: readonly TimelineEntry[]): TimelineData {
  const mirror = createMirror(data.base.root, data.base.records);
  let { at, changes, truncated } = data.base;
  for (const entry of entries) {
    at = entry.at;
    if (entry.kind === 'checkpoint') truncated = entry.truncated;
    else {
      applyChange(mirror, entry);
      changes++;
    }
  }
  return {
    ...data,
    base: { at, root: mirror.root, records: [...mirror.records.values()], changes, truncated },
    entries: data.entries.slice(entries.length),
    bytes: { base: mirror.bytes, entries: data.bytes.entries },
  };
}

import { TIMELINE_VERSION } from '../../../schemas/content-port';
import type { TimelineData, TimelineEntry } from '../../../schemas/timeline';
import { applyChange, changeBytes, cloneMirror, type Mirror } from './mirror';

export interface ChangeLogBounds {
  /** Entries older than this many seconds are folded into the base. */
  bufferSeconds: number;
  /** Most estimated bytes of entries kept; past it the oldest are folded into the base. */
  maxEntryBytes: number;
}

/**
 * The recorded entries of one document after its base, bounded by a time window and a byte budget.
 * What falls out is folded into the base, so the oldest checkpoints are lost but the page at every
 * kept checkpoint can still be rebuilt.
 */
export interface ChangeLog {
  append(entry: TimelineEntry, now: number): void;
  /** Changes recorded so far in the document, evicted ones included. */
  readonly changeCount: number;
  toData(): TimelineData;
}

function entryBytes(entry: TimelineEntry): number {
  return entry.kind === 'checkpoint' ? 90 + entry.label.length + entry.url.length + entry.title.length : changeBytes(entry);
}

/** A log whose base starts as `base` (the live mirror at the document's start; it is cloned). */
export function createChangeLog(documentId: string, base: Mirror, baseAt: number, bounds: ChangeLogBounds, baseTruncated: boolean): ChangeLog {
  const baseMirror = cloneMirror(base);
  let baseTime = baseAt;
  let baseChanges = 0;
  let truncated = baseTruncated;
  let changes = 0;
  const entries: TimelineEntry[] = [];
  const sizes: number[] = [];
  let head = 0;
  let bytes = 0;

  const evictOne = (): void => {
    const e = entries[head]!;
    bytes -= sizes[head]!;
    head++;
    baseTime = e.at;
    if (e.kind === 'checkpoint') truncated = e.truncated;
    else {
      applyChange(baseMirror, e);
      baseChanges++;
    }
  };
  const compact = (): void => {
    // Drop evicted slots now and then, so eviction stays O(1) per entry.
    if (head > 1024 && head * 2 > entries.length) {
      entries.splice(0, head);
      sizes.splice(0, head);
      head = 0;
    }
  };

  return {
    append(entry, now) {
      if (entry.kind !== 'checkpoint') changes++;
      entries.push(entry);
      const size = entryBytes(entry);
      sizes.push(size);
      bytes += size;
      const oldest = now - bounds.bufferSeconds * 1000;
      while (head < entries.length && (bytes > bounds.maxEntryBytes || entries[head]!.at < oldest)) evictOne();
      compact();
    },
    get changeCount() {
      return changes;
    },
    toData() {
      return {
        version: TIMELINE_VERSION,
        document_id: documentId,
        base: {
          at: baseTime,
          root: baseMirror.root,
          records: [...baseMirror.records.values()],
          changes: baseChanges,
          truncated,
        },
        entries: entries.slice(head),
        bytes: { base: baseMirror.bytes, entries: bytes },
      };
    },
  };
}

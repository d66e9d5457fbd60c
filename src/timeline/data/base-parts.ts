import { TIMELINE_BASE_PART_BYTES, TIMELINE_LIMITS } from '../../../schemas/content-port';
import type { TimelineBasePartMessage, TimelineData, TimelineStartMessage } from '../../../schemas/timeline';

// A big base crosses from the page to the worker in parts: the page splits it (`splitBase`), the worker
// joins it (`BaseParts`). Both halves of the protocol live here, so they change together.

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

export interface BasePartsLimits {
  /** Most JSON characters of one base, its parts together (as one message's bound). */
  chars: number;
  /** Most records of one base. */
  records: number;
  /** Most JSON characters of all the bases being put together at once (every tab). */
  totalChars: number;
}

const DEFAULT_LIMITS: BasePartsLimits = {
  chars: TIMELINE_LIMITS.messageChars,
  records: TIMELINE_LIMITS.records,
  totalChars: 2 * TIMELINE_LIMITS.messageChars,
};

interface Waiting {
  tabId: number;
  data: TimelineData;
  parts: number;
  /** The part that must come next. */
  next: number;
  chars: number;
  /** Order of arrival, oldest first, for the total bound. */
  since: number;
}

const jsonChars = (value: unknown): number => JSON.stringify(value).length;

/**
 * Puts together a document's base sent in parts (`timeline/start` with `parts`, then
 * `timeline/base-part` 1 … parts - 1, in order). Held in memory only: a worker that restarts meanwhile
 * loses the parts, and the document is not kept. A part out of order, a part of a base not waiting,
 * entries before the last part, or a base past its bounds drop the document with a logged reason.
 */
export class BaseParts {
  private readonly waiting = new Map<string, Waiting>();
  private arrivals = 0;

  constructor(
    private readonly log: (message: string) => void,
    private readonly limits: BasePartsLimits = DEFAULT_LIMITS,
  ) {}

  /** A `timeline/start` whose base comes in parts: held until its last part. */
  begin(tabId: number, message: TimelineStartMessage & { parts: number }): void {
    this.supersede(tabId);
    const entry: Waiting = { tabId, data: message.data, parts: message.parts, next: 1, chars: jsonChars(message.data), since: this.arrivals++ };
    this.waiting.set(message.data.document_id, entry);
    this.bound(message.data.document_id, entry);
  }

  /** A whole `timeline/start` of the tab: a base still coming for it will not be finished (the page moved on). */
  supersede(tabId: number, except?: string): void {
    for (const [id, w] of this.waiting) {
      if (w.tabId === tabId && id !== except) this.drop(id, `a new document started before its last part (${w.next} of ${w.parts}) came`);
    }
  }

  /** A `timeline/base-part`: the whole data once it was the last one, else null. */
  add(tabId: number, message: TimelineBasePartMessage): TimelineData | null {
    const w = this.waiting.get(message.document_id);
    if (!w || w.tabId !== tabId) {
      this.log(`[afr] DOM timeline of tab ${tabId}: part ${message.part} of a base that is not waiting for it (its start never came, or the document was dropped); ignored`);
      return null;
    }
    if (message.part !== w.next || message.parts !== w.parts) {
      this.drop(message.document_id, `part ${message.part} of ${message.parts} came where part ${w.next} of ${w.parts} was due`);
      return null;
    }
    w.next++;
    w.chars += jsonChars(message.records);
    for (const r of message.records) w.data.base.records.push(r);
    if (!this.bound(message.document_id, w)) return null;
    if (w.next < w.parts) return null;
    this.waiting.delete(message.document_id);
    return w.data;
  }

  /** Whether the document's base is still coming. */
  has(documentId: string): boolean {
    return this.waiting.has(documentId);
  }

  /** Entries of a document whose base is still coming: its missing parts will not come before them. */
  interrupt(documentId: string): void {
    const w = this.waiting.get(documentId);
    if (w) this.drop(documentId, `its entries came before its last part (${w.next} of ${w.parts})`);
  }

  /** Drops every base waiting (the redaction rules changed). */
  clear(): void {
    this.waiting.clear();
  }

  /** Holds one base and all of them to their bounds; false when this one was dropped. */
  private bound(documentId: string, w: Waiting): boolean {
    if (w.chars > this.limits.chars || w.data.base.records.length > this.limits.records) {
      this.drop(documentId, `its parts hold more than ${this.limits.records} records or ${this.limits.chars} characters`);
      return false;
    }
    let total = 0;
    for (const other of this.waiting.values()) total += other.chars;
    for (const [id, other] of [...this.waiting].sort((a, b) => a[1].since - b[1].since)) {
      if (total <= this.limits.totalChars) break;
      total -= other.chars;
      this.drop(id, `the bases being received hold more than ${this.limits.totalChars} characters`);
    }
    return this.waiting.has(documentId);
  }

  private drop(documentId: string, why: string): void {
    const w = this.waiting.get(documentId);
    if (!w) return;
    this.waiting.delete(documentId);
    this.log(`[afr] DOM timeline of tab ${w.tabId}: a document's base sent in parts is not kept: ${why}`);
  }
}

import type { TimelineData, TimelineEntriesMessage, TimelineEntry, TimelineMessage } from '../../../schemas/timeline';
import type { Clock } from '../../shared/clock';
import { errorMessage } from '../../shared/error-message';
import { foldIntoBase } from '../data/fold';
import { BaseParts } from '../data/base-parts';
import type { TimelineDocMeta, TimelineStorage } from './ports';

export interface TimelineLimits {
  /** Documents with nothing newer than this are dropped; older changes are folded into their base. */
  windowMs: number;
  /** Estimated bytes (JSON characters) of every document kept, bases and changes. */
  maxBytes: number;
}

/**
 * Changes past the window wait this much longer before they are folded into their base: folding
 * rewrites the base, so it is done for several batches at once, not for each.
 */
export const FOLD_SLACK_MS = 10_000;

const jsonChars = (value: unknown): number => JSON.stringify(value).length;

/** What the keeper has accepted since it was made (the worker's start), whatever was dropped or folded since. */
export interface TimelineReceived {
  /** Documents started (`timeline/start` taken). */
  receivedDocuments: number;
  /** Entries taken (changes and checkpoints), those a document's start carried included. */
  receivedEntries: number;
  /** Checkpoints among them: one per step of a top frame, and one as each page loads and is left. */
  receivedCheckpoints: number;
  /** Estimated bytes (JSON characters) of the bases and entries taken, as they were stored. */
  receivedBytes: number;
}

/**
 * Keeps each tab's DOM timeline as the top frames send it: per document, its base and its batches
 * of entries, in storage that survives a service-worker restart, under a time window and a byte cap
 * of its own. Every operation runs in order on one queue, so a bundle reads what came before it.
 */
export class TimelineKeeper {
  private readonly metas = new Map<string, TimelineDocMeta>();
  private readonly received: TimelineReceived = { receivedDocuments: 0, receivedEntries: 0, receivedCheckpoints: 0, receivedBytes: 0 };
  private queue: Promise<unknown> = Promise.resolve();
  /** Bases sent in parts, until their last part came. */
  private readonly parts: BaseParts;

  constructor(
    private readonly storage: TimelineStorage,
    private readonly clock: Clock,
    private readonly limits: () => TimelineLimits,
    private readonly log: (message: string) => void,
  ) {
    this.parts = new BaseParts(log);
  }

  /** Reads what an earlier worker kept (at start-up). */
  load(): Promise<void> {
    return this.enqueue(async () => {
      this.metas.clear();
      for (const meta of await this.storage.loadMetas()) this.metas.set(meta.documentId, meta);
      await this.enforce();
    });
  }

  /**
   * A top frame's `timeline/start`, `timeline/base-part` or `timeline/entries`, already validated. A
   * base sent in parts is kept once its last part came.
   */
  receive(tabId: number, message: TimelineMessage): Promise<void> {
    return this.enqueue(async () => {
      if (message.type === 'timeline/entries') {
        this.parts.interrupt(message.document_id);
        return this.append(tabId, message);
      }
      if (message.type === 'timeline/base-part') {
        const whole = this.parts.add(tabId, message);
        return whole ? this.start(tabId, whole) : undefined;
      }
      if (message.parts !== undefined) return this.parts.begin(tabId, { ...message, parts: message.parts });
      this.parts.supersede(tabId);
      return this.start(tabId, message.data);
    });
  }

  /**
   * Each document of the tab with anything at or after `since`, whole (base and every entry kept),
   * oldest first.
   */
  documents(tabId: number, since: number): Promise<TimelineData[]> {
    return this.enqueue(async () => {
      const metas = [...this.metas.values()].filter((m) => m.tabId === tabId && m.updatedAt >= since).sort((a, b) => a.startedAt - b.startedAt);
      const out: TimelineData[] = [];
      for (const meta of metas) {
        const base = await this.storage.getBase(meta.documentId);
        if (!base) continue;
        const chunks = await this.storage.getChunks(
          meta.documentId,
          meta.chunks.map((c) => c.n),
        );
        const entries = chunks.flat();
        out.push({ ...base, entries, bytes: { base: meta.baseBytes, entries: meta.chunks.reduce((n, c) => n + c.bytes, 0) } });
      }
      return out;
    });
  }

  /** Documents and bytes kept, and what was accepted since the keeper was made (for `status()` and tests). */
  stats(): { documents: number; bytes: number; latestStart: number | null } & TimelineReceived {
    let bytes = 0;
    let latestStart: number | null = null;
    for (const m of this.metas.values()) {
      bytes += docBytes(m);
      latestStart = Math.max(latestStart ?? m.startedAt, m.startedAt);
    }
    return { documents: this.metas.size, bytes, latestStart, ...this.received };
  }

  /**
   * Drops every document: the redaction rules changed, and pages recorded under the old ones must not
   * reach a bundle made under the new ones (the pages record afresh with the new rules).
   */
  clear(): Promise<void> {
    return this.enqueue(async () => {
      this.parts.clear();
      for (const id of [...this.metas.keys()]) await this.drop(id);
    });
  }

  /** Limits changed (settings): applied at once. */
  applyLimits(): Promise<void> {
    return this.enqueue(() => this.enforce());
  }

  private enqueue<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task);
    // A failed task is reported to its caller; the next one still runs.
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async start(tabId: number, data: TimelineData): Promise<void> {
    // The same document starting again (its page restored): what was kept of it is replaced.
    if (this.metas.has(data.document_id)) await this.drop(data.document_id);
    const base: TimelineData = { ...data, entries: [], bytes: { base: 0, entries: 0 } };
    const baseBytes = jsonChars(base.base);
    base.bytes.base = baseBytes;
    const last = data.entries.at(-1);
    const meta: TimelineDocMeta = {
      documentId: data.document_id,
      tabId,
      startedAt: data.base.at,
      updatedAt: Math.max(data.base.at, last?.at ?? 0),
      received: data.entries.length,
      broken: false,
      baseBytes,
      chunks: [],
      nextChunk: 0,
    };
    await this.storage.putBase(meta.documentId, base);
    const entryBytes = data.entries.length ? await this.addChunk(meta, data.entries) : 0;
    this.metas.set(meta.documentId, meta);
    this.received.receivedDocuments++;
    this.count(data.entries, baseBytes + entryBytes);
    await this.storage.putMeta(meta);
    await this.enforce();
  }

  private async append(tabId: number, message: TimelineEntriesMessage): Promise<void> {
    const meta = this.metas.get(message.document_id);
    // Unknown (dropped, evicted, or never started) or another tab's document: nothing to add to.
    if (!meta || meta.tabId !== tabId || meta.broken) return;
    if (message.first !== meta.received) {
      meta.broken = true;
      this.log(`[afr] DOM timeline of tab ${tabId}: entries ${meta.received}–${message.first - 1} never came; later changes of this document are not kept`);
      await this.storage.putMeta(meta);
      return;
    }
    this.count(message.entries, await this.addChunk(meta, message.entries));
    meta.received += message.entries.length;
    await this.storage.putMeta(meta);
    await this.enforce();
  }

  /** Stores a batch of the document's entries; returns its estimated bytes. */
  private async addChunk(meta: TimelineDocMeta, entries: TimelineEntry[]): Promise<number> {
    const n = meta.nextChunk++;
    await this.storage.putChunk(meta.documentId, n, entries);
    const lastAt = entries.at(-1)!.at;
    const bytes = jsonChars(entries);
    meta.chunks.push({ n, lastAt, bytes });
    meta.updatedAt = Math.max(meta.updatedAt, lastAt);
    return bytes;
  }

  private count(entries: readonly TimelineEntry[], bytes: number): void {
    this.received.receivedEntries += entries.length;
    for (const entry of entries) if (entry.kind === 'checkpoint') this.received.receivedCheckpoints++;
    this.received.receivedBytes += bytes;
  }

  private async drop(documentId: string): Promise<void> {
    this.metas.delete(documentId);
    await this.storage.deleteDocument(documentId);
  }

  /** Folds the document's first `count` chunks into its base. */
  private async fold(meta: TimelineDocMeta, count: number): Promise<void> {
    const folded = meta.chunks.slice(0, count);
    const base = await this.storage.getBase(meta.documentId);
    if (!base) return this.drop(meta.documentId);
    const entries = (await this.storage.getChunks(meta.documentId, folded.map((c) => c.n))).flat();
    const next = foldIntoBase({ ...base, entries }, entries);
    next.bytes = { base: jsonChars(next.base), entries: 0 };
    await this.storage.putBase(meta.documentId, next);
    await this.storage.deleteChunks(meta.documentId, folded.map((c) => c.n));
    meta.chunks = meta.chunks.slice(count);
    meta.baseBytes = next.bytes.base;
    await this.storage.putMeta(meta);
  }

  /** The window and the byte cap: stale documents go, old changes are folded, then the oldest documents go past the cap. */
  private async enforce(): Promise<void> {
    const { windowMs, maxBytes } = this.limits();
    const oldest = this.clock.now() - windowMs;
    for (const meta of [...this.metas.values()]) {
      if (meta.updatedAt < oldest) {
        await this.drop(meta.documentId);
        continue;
      }
      const stale = meta.chunks.findIndex((c) => c.lastAt >= oldest);
      const count = stale === -1 ? meta.chunks.length : stale;
      if (count > 0 && meta.chunks[0]!.lastAt < oldest - FOLD_SLACK_MS) {
        await this.fold(meta, count).catch((error: unknown) => {
          this.log(`[afr] DOM timeline of tab ${meta.tabId}: old changes not folded (${errorMessage(error)}); the document is dropped`);
          return this.drop(meta.documentId);
        });
      }
    }
    let total = this.stats().bytes;
    while (total > maxBytes && this.metas.size > 0) {
      const byAge = [...this.metas.values()].sort((a, b) => a.updatedAt - b.updatedAt);
      const victim = byAge[0]!;
      if (byAge.length === 1 && victim.chunks.length > 1) {
        // The only document left: its older changes become its base (only its last pages stay rebuildable).
        await this.fold(victim, victim.chunks.length - 1);
      } else {
        this.log(`[afr] DOM timeline: a document of tab ${victim.tabId} dropped, the timeline is past its byte cap (maxTimelineBytes ${maxBytes})`);
        await this.drop(victim.documentId);
      }
      const after = this.stats().bytes;
      if (after >= total && this.metas.has(victim.documentId)) {
        await this.drop(victim.documentId);
      }
      total = this.stats().bytes;
    }
  }
}

function docBytes(m: TimelineDocMeta): number {
  return m.chunks.reduce((n, c) => n + c.bytes, m.baseBytes);
}

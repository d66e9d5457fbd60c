import { LOAD_PAGE_LABEL, STEP_BATCH_WINDOW_MS, TIMELINE_FLUSH_MS, TIMELINE_LIMITS } from '../../schemas/content-port';
import type { ActionPlace, CheckpointRef, TimelineEntriesMessage, TimelineEntry, TimelineStartMessage } from '../../schemas/timeline';
import type { TextMasker } from '../redact/mask-text';
import { changeBytes } from '../timeline-data/mirror';
import { startTimelineInSlices, type TimelineOptions, type TimelineRecorder } from './timeline-recorder';

/** Entries waiting past this many estimated bytes go at once, not at the next timer. */
const FLUSH_BYTES = 512 * 1024;


/** The top frame's DOM timeline, wired to the background. */
export interface PageTimeline {
  /** A checkpoint just before an action, and where the action hits; null until the first snapshot is taken. */
  beforeAction(label: string, target: Element | null, point?: { x: number; y: number }): ActionPlace | null;
  /** A checkpoint (an agent's step, assertion or mark, or the page being left); null until started. */
  checkpoint(label: string): CheckpointRef | null;
  /** Sends the entries waiting now (the page is left, the background asks). */
  flush(): void;
  stop(): void;
}

export interface PageTimelineOptions extends Pick<TimelineOptions, 'bufferSeconds' | 'maxPageBytes' | 'warn'> {
  send(message: TimelineStartMessage | TimelineEntriesMessage): void;
  now?: () => number;
  /** Runs the first snapshot in slices (default: `startTimelineInSlices`'s own pauses). */
  sliceMs?: number;
}

/**
 * Starts recording `doc` as a timeline and ships it to the background: the base once the first
 * snapshot is whole (taken in slices, so a big page is never frozen), then the entries in batches,
 * at most `TIMELINE_FLUSH_MS` after they were recorded, within the steps' batch window after a checkpoint,
 * sooner when many wait, at once when flushed.
 * Checkpoints and targets are read synchronously; sending waits for a timer, off the action's task.
 */
export function startPageTimeline(doc: Document, masker: TextMasker, opts: PageTimelineOptions): PageTimeline {
  const now = opts.now ?? Date.now;
  const warn = opts.warn ?? ((m: string, e?: unknown) => console.warn(`[afr] ${m}`, e ?? ''));
  let recorder: TimelineRecorder | null = null;
  let stopped = false;
  let documentId = '';
  let outbox: TimelineEntry[] = [];
  let outboxBytes = 0;
  let sent = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const guard = (fn: () => void) => () => {
    try {
      fn();
    } catch (error) {
      warn('timeline: sending failed', error);
    }
  };
  const flush = (): void => {
    clearTimeout(timer);
    timer = undefined;
    if (!recorder || !outbox.length) return;
    const waiting = outbox;
    outbox = [];
    outboxBytes = 0;
    for (let i = 0; i < waiting.length; i += TIMELINE_LIMITS.batchEntries) {
      const entries = waiting.slice(i, i + TIMELINE_LIMITS.batchEntries);
      opts.send({ type: 'timeline/entries', document_id: documentId, first: sent, entries });
      sent += entries.length;
    }
  };
  const schedule = (delay: number): void => {
    if (stopped) return;
    if (timer !== undefined && delay >= TIMELINE_FLUSH_MS) return;
    clearTimeout(timer);
    timer = setTimeout(guard(flush), delay);
  };
  const onEntry = (entry: TimelineEntry): void => {
    outbox.push(entry);
    outboxBytes += entry.kind === 'checkpoint' ? 100 : changeBytes(entry);
    // A checkpoint marks a step: its page goes within the steps' own batch window, so a burst of actions
    // makes one message, not one per action. A bundle, a hidden page or pagehide flushes it at once.
    const delay = outboxBytes > FLUSH_BYTES || outbox.length >= TIMELINE_LIMITS.batchEntries ? 0 : entry.kind === 'checkpoint' ? STEP_BATCH_WINDOW_MS : TIMELINE_FLUSH_MS;
    schedule(delay);
  };

  void startTimelineInSlices(doc, masker, { bufferSeconds: opts.bufferSeconds, maxPageBytes: opts.maxPageBytes, warn, now, onEntry }, { sliceMs: opts.sliceMs ?? 8 })
    .then((started) => {
      if (stopped) return started.stop();
      recorder = started;
      const data = started.data();
      documentId = data.document_id;
      // What was recorded up to now is in the data: the outbox starts empty after it.
      outbox = [];
      outboxBytes = 0;
      sent = data.entries.length;
      opts.send({ type: 'timeline/start', ts: now(), data });
      // The page as it loaded, with its address and title: a document with no step still has a page to show.
      started.checkpoint(LOAD_PAGE_LABEL);
    })
    .catch((error: unknown) => warn('timeline: the first snapshot failed', error));

  const checkpoint = (label: string): CheckpointRef | null => {
    if (!recorder) return null;
    try {
      return { document_id: documentId, seq: recorder.checkpoint(label).seq };
    } catch (error) {
      warn('timeline: checkpoint failed', error);
      return null;
    }
  };

  return {
    beforeAction(label, target, point) {
      const ref = checkpoint(label);
      if (!ref || !recorder) return null;
      const place: ActionPlace = { checkpoint: ref };
      try {
        const hit = recorder.target(target);
        if (hit.node_id !== null) place.node = hit.node_id;
        if (hit.rect) place.rect = hit.rect;
      } catch (error) {
        warn('timeline: target failed', error);
      }
      if (point) place.point = { x: Math.round(point.x), y: Math.round(point.y) };
      return place;
    },
    checkpoint,
    flush: guard(flush),
    stop() {
      stopped = true;
      clearTimeout(timer);
      recorder?.stop();
      recorder = null;
    },
  };
}

import { LEAVE_PAGE_LABEL, LOAD_PAGE_LABEL, STEP_BATCH_WINDOW_MS, TIMELINE_FLUSH_MS, TIMELINE_LIMITS } from '../../../schemas/content-port';
import type { ActionPlace, CheckpointRef, TimelineBasePartMessage, TimelineEntry, TimelineMessage } from '../../../schemas/timeline';
import type { TextMasker } from '../../redact/mask-text';
import { changeBytes } from '../data/mirror';
import { splitBase } from '../data/base-parts';
import { beginTimelineInSlices, type SlicedStart } from './sliced-start';
import type { TimelineOptions, TimelineRecorder } from './timeline-recorder';

/** Entries waiting past this many estimated bytes go at once, not at the next timer. */
const FLUSH_BYTES = 512 * 1024;


/** The top frame's DOM timeline, wired to the background. */
export interface PageTimeline {
  /**
   * A checkpoint just before an action, and where the action hits. While the first snapshot is
   * taken, the checkpoint waits for it (`asked_at`) and the target is recorded ahead of it.
   */
  beforeAction(label: string, target: Element | null, point?: { x: number; y: number }): ActionPlace | null;
  /** A checkpoint (an agent's step, assertion or mark, or the page being left); waits for the first snapshot as `beforeAction`'s. */
  checkpoint(label: string): CheckpointRef | null;
  /**
   * Sends what waits now (the page is left or hidden, the background asks): the rest of a base sent in
   * parts, then the entries. A first snapshot that checkpoints wait for is finished at once, in this task.
   */
  flush(): void;
  stop(): void;
}

export interface PageTimelineOptions extends Pick<TimelineOptions, 'bufferSeconds' | 'maxPageBytes' | 'warn'> {
  send(message: TimelineMessage): void;
  now?: () => number;
  /** Runs the first snapshot in slices (default: `beginTimelineInSlices`'s own pauses). */
  sliceMs?: number;
  /** A base past this many estimated bytes goes in parts, one per task (`TIMELINE_BASE_PART_BYTES`). */
  basePartBytes?: number;
}

/**
 * Starts recording `doc` as a timeline and ships it to the background: the base once the first
 * snapshot is whole (taken in slices, so a big page is never frozen; a big base in parts, one per
 * task), then the entries in batches, at most `TIMELINE_FLUSH_MS` after they were recorded, within
 * the steps' batch window after a checkpoint, sooner when many wait, at once when flushed.
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
  /** Parts of the base not sent yet: entries wait for them. */
  let parts: TimelineBasePartMessage[] = [];
  let partTimer: ReturnType<typeof setTimeout> | undefined;
  /** A checkpoint waits for the first snapshot: a step references it. */
  let awaited = false;

  const guard = (fn: () => void) => () => {
    try {
      fn();
    } catch (error) {
      warn('timeline: sending failed', error);
    }
  };
  const sendParts = (): void => {
    clearTimeout(partTimer);
    partTimer = undefined;
    for (const part of parts.splice(0)) opts.send(part);
  };
  const sendEntries = (): void => {
    clearTimeout(timer);
    timer = undefined;
    if (!recorder || parts.length || !outbox.length) return;
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
    timer = setTimeout(guard(sendEntries), delay);
  };
  /** One part per task: posting clones a message on this thread in one go. The entries go after the last. */
  const nextPart = (): void => {
    partTimer = undefined;
    const part = parts.shift();
    if (part) opts.send(part);
    if (parts.length) partTimer = setTimeout(guard(nextPart), 0);
    else if (outbox.length) schedule(0);
  };
  const onEntry = (entry: TimelineEntry): void => {
    outbox.push(entry);
    outboxBytes += entry.kind === 'checkpoint' ? 100 : changeBytes(entry);
    // A checkpoint marks a step: its page goes within the steps' own batch window, so a burst of actions
    // makes one message, not one per action. A bundle, a hidden page or pagehide flushes it at once.
    const delay = outboxBytes > FLUSH_BYTES || outbox.length >= TIMELINE_LIMITS.batchEntries ? 0 : entry.kind === 'checkpoint' ? STEP_BATCH_WINDOW_MS : TIMELINE_FLUSH_MS;
    schedule(delay);
  };
  const ship = (started: TimelineRecorder): void => {
    recorder = started;
    const data = started.data();
    documentId = data.document_id;
    // What was recorded up to now (the checkpoints that waited) is in the data: the outbox starts empty after it.
    outbox = [];
    outboxBytes = 0;
    sent = data.entries.length;
    const split = splitBase(data, now(), opts.basePartBytes);
    opts.send(split.start);
    parts = split.parts;
    if (parts.length) partTimer = setTimeout(guard(nextPart), 0);
    // The page as it loaded, with its address and title: a document with no step still has a page to
    // show (one whose steps waited for it has theirs).
    if (!awaited) started.checkpoint(LOAD_PAGE_LABEL);
  };

  const starting: SlicedStart = beginTimelineInSlices(
    doc,
    masker,
    { bufferSeconds: opts.bufferSeconds, maxPageBytes: opts.maxPageBytes, warn, now, onEntry },
    { sliceMs: opts.sliceMs ?? 8 },
  );
  starting.started
    .then((started) => {
      if (stopped) return started.stop();
      ship(started);
    })
    .catch((error: unknown) => warn('timeline: the first snapshot failed', error));

  const checkpoint = (label: string): CheckpointRef | null => {
    if (stopped) return null;
    try {
      // Whole (even if not shipped yet: a checkpoint taken before `ship` reads the data is in it).
      const whole = starting.recorder;
      if (whole) return { document_id: starting.documentId, seq: whole.checkpoint(label).seq };
      // A page left before its first snapshot is whole, with no step on it, is not finished for that.
      if (label === LEAVE_PAGE_LABEL && !awaited) return null;
      const seq = starting.checkpoint(label);
      if (seq === null) return null;
      awaited = true;
      return { document_id: starting.documentId, seq };
    } catch (error) {
      warn('timeline: checkpoint failed', error);
      return null;
    }
  };
  const flush = (): void => {
    if (!starting.recorder && awaited && !stopped) {
      // Steps reference the page: it is finished now rather than lost with the page (a long task only
      // when a big page is left, hidden or bundled within its first snapshot). `started` then ships it.
      starting.finishNow();
      return void starting.started.then(guard(flush), () => undefined);
    }
    sendParts();
    sendEntries();
  };

  return {
    beforeAction(label, target, point) {
      const ref = checkpoint(label);
      if (!ref) return null;
      const place: ActionPlace = { checkpoint: ref };
      try {
        const hit = starting.target(target);
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
      clearTimeout(partTimer);
      parts = [];
      starting.stop();
      recorder = null;
    },
  };
}

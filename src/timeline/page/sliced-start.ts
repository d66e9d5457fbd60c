import type { TextMasker } from '../../redact/mask-text';
import type { TimelineTarget } from '../../../schemas/timeline';
import { prepareTimeline, type TimelineOptions, type TimelineRecorder } from './timeline-recorder';

/** How `beginTimelineInSlices` takes the first snapshot: slices of `sliceMs` by `clock`, `pause` between them. */
export interface Slicing {
  sliceMs?: number;
  pause?: () => Promise<void>;
  clock?: () => number;
}

/** A timeline whose first snapshot is being taken in slices (`beginTimelineInSlices`). */
export interface SlicedStart {
  /** The document's id, known from the start. */
  readonly documentId: string;
  /** The recorder, once the first snapshot is whole. */
  readonly started: Promise<TimelineRecorder>;
  /** The same, synchronously: null until the first snapshot is whole. */
  readonly recorder: TimelineRecorder | null;
  /**
   * A checkpoint asked for before then (an action, an agent's step): its seq is reserved now and its
   * entry appended, first, once the snapshot is whole (marked `asked_at`: the page it shows is the
   * page then, what the step saw plus what changed until then). Null past `MAX_WAITING_CHECKPOINTS`
   * or once started (use the recorder).
   */
  checkpoint(label: string): number | null;
  /** Where an action hits before then: its element is recorded ahead of the walk, so its id holds. */
  target(el: EventTarget | null): TimelineTarget;
  /** Takes the rest of the first snapshot now, in this task (the page is being left: its steps keep their page). */
  finishNow(): void;
  /** Stops the walk and the observing (`started` then never settles). */
  stop(): void;
}

/**
 * Starts recording `doc` with its first snapshot taken in slices of about `sliceMs` of main-thread
 * time, the page running between them (`pause`), so a big page is not frozen by one long task. What
 * changes meanwhile is observed and folded in before the recorder is handed out; checkpoints and
 * targets asked for meanwhile are answered at once and kept (`SlicedStart`).
 */
export function beginTimelineInSlices(
  doc: Document,
  masker: TextMasker,
  opts: TimelineOptions,
  { sliceMs = 8, pause = () => new Promise<void>((resolve) => setTimeout(resolve, 0)), clock = () => performance.now() }: Slicing = {},
): SlicedStart {
  const starting = prepareTimeline(doc, masker, opts);
  let recorder: TimelineRecorder | null = null;
  let stopped = false;
  let resolve: (r: TimelineRecorder) => void = () => undefined;
  let reject: (error: unknown) => void = () => undefined;
  const started = new Promise<TimelineRecorder>((res, rej) => ((resolve = res), (reject = rej)));
  const finish = (): void => {
    if (recorder || stopped) return;
    recorder = starting.finish();
    resolve(recorder);
  };
  void (async () => {
    for (;;) {
      const end = clock() + sliceMs;
      if (recorder || stopped) return;
      if (starting.build(() => clock() >= end)) return finish();
      await pause();
    }
  })().catch(reject);
  return {
    documentId: starting.documentId,
    started,
    get recorder() {
      return recorder;
    },
    checkpoint: (label) => (recorder || stopped ? null : starting.reserveCheckpoint(label)),
    target: (el) => (recorder ?? starting).target(el),
    finishNow() {
      if (recorder || stopped) return;
      try {
        starting.build(() => false);
        finish();
      } catch (error) {
        reject(error);
      }
    },
    stop() {
      stopped = true;
      (recorder ?? starting).stop();
    },
  };
}

/**
 * `beginTimelineInSlices`, for a caller that waits for the recorder: resolves once the first
 * snapshot is whole.
 */
export function startTimelineInSlices(doc: Document, masker: TextMasker, opts: TimelineOptions, slicing: Slicing = {}): Promise<TimelineRecorder> {
  return beginTimelineInSlices(doc, masker, opts, slicing).started;
}

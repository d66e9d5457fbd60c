import type { SensitiveRectsMessage } from '../../../schemas/messages';
import type { Guard } from './guard';

type Answer = (report: SensitiveRectsMessage | null) => void;

/** Questions about where the regions are now, answered off the report stream. */
export interface SyncAnswers {
  /** See `RectReporter.sync`. */
  sync(answer: Answer): void;
  /** Answers every question waiting (with what `measure` gives once the reporter stopped: null), and answers any later one with null. */
  stop(): void;
}

export interface SyncAnswersOptions {
  /** The report of the regions now, or null (not painted, not laid out, stopped); not emitted. */
  measure: () => SensitiveRectsMessage | null;
  /** How long until measuring may run again, paced as the reports are. */
  paceLeft: () => number;
  guarded: Guard;
}

/**
 * Answers questions (`sync`) at the second animation frame after they came: the frame already asked
 * for when one came may carry the compositor's scroll from before the picture the worker asks
 * about; the next one is asked for after it, and carries what the compositor did since. Later when
 * measuring is slow (paced as the reports are); at once in a hidden document.
 */
export function startSyncAnswers(win: Window, { measure, paceLeft, guarded }: SyncAnswersOptions): SyncAnswers {
  const answers: Answer[] = [];
  let stopped = false;
  let syncFrame: number | null = null;
  let syncTimer: ReturnType<typeof setTimeout> | null = null;
  const answerAll = (report: SensitiveRectsMessage | null) => {
    for (const answer of answers.splice(0)) guarded('answering with the sensitive regions', () => answer(report));
  };
  const cancelSync = () => {
    if (syncFrame !== null) win.cancelAnimationFrame?.(syncFrame);
    if (syncTimer !== null) clearTimeout(syncTimer);
    syncFrame = syncTimer = null;
  };
  /** Measures now and answers every question waiting. */
  const answerNow = () => {
    cancelSync();
    answerAll(measure());
  };
  const inFrames = (frames: number, then: () => void) => {
    syncFrame = win.requestAnimationFrame(() => {
      syncFrame = null;
      guarded('answering with the sensitive regions', () => (frames > 1 ? inFrames(frames - 1, then) : then()));
    });
  };
  const answerPaced = () => {
    const left = paceLeft();
    if (left <= 0) return answerNow();
    syncTimer = setTimeout(() => {
      syncTimer = null;
      guarded('answering with the sensitive regions', () => inFrames(1, answerPaced));
    }, left);
  };
  const sync = (answer: Answer) => {
    if (stopped) return answer(null);
    answers.push(answer);
    // A hidden document has no animation frames, and nothing on screen for the compositor to move.
    if (win.document.hidden || !win.requestAnimationFrame) return answerNow();
    // Others waiting (rare: the worker asks one question at a time) are answered with this one, two
    // animation frames from now: the frame their count had reached may predate this question.
    cancelSync();
    inFrames(2, answerPaced);
  };
  // Hidden while a question waits: its animation frames will not come.
  const onHidden = () => guarded('answering with the sensitive regions', () => win.document.hidden && answers.length > 0 && answerNow());
  win.document.addEventListener('visibilitychange', onHidden);

  return {
    sync,
    stop: () => {
      stopped = true;
      guarded('removing a listener', () => win.document.removeEventListener('visibilitychange', onHidden));
      guarded('removing a listener', answerNow);
    },
  };
}

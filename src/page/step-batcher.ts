import { STEP_BATCH_WINDOW_MS } from '../../schemas/content-port';
import { STEP_BATCH_MAX } from '../../schemas/content-messages';
import type { StepObservedMessage, ToBackgroundMessage } from '../../schemas/messages';


export interface StepBatcher {
  /**
   * Steps are batched. A region report goes at once, past them: it only matters to the frames, and
   * a page reports its regions on every focus change. Any other message (an agent command, a page
   * error) first flushes the waiting steps, so their order holds.
   */
  send(message: ToBackgroundMessage): void;
  /** Posts the waiting steps now (the page is hidden or left, the background asks for something). */
  flush(): void;
  /** Drops the waiting steps and the timer (the script is being disposed of). */
  dispose(): void;
}

/**
 * Coalesces a content script's observed steps: a step goes at once when nothing was posted in the
 * last `windowMs` (a single action reaches the background without delay); during a quick run of
 * actions, steps wait until `windowMs` after the last post and go as one `step/batch`. A script
 * acting as fast as it can then costs a few messages a second instead of one per step.
 * @example const batcher = createStepBatcher((message) => channel.send(message));
 */
export function createStepBatcher(
  post: (message: ToBackgroundMessage) => void,
  {
    windowMs = STEP_BATCH_WINDOW_MS,
    maxSteps = STEP_BATCH_MAX,
    now = Date.now,
    unbatched = () => false,
  }: {
    windowMs?: number;
    maxSteps?: number;
    now?: () => number;
    /** Steps go at once while this holds: a hidden page's timers may fire a second late. */
    unbatched?: () => boolean;
  } = {},
): StepBatcher {
  let waiting: StepObservedMessage[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let lastPost = -Infinity;

  const cancelTimer = () => {
    clearTimeout(timer);
    timer = undefined;
  };
  const postNow = (message: ToBackgroundMessage) => {
    lastPost = now();
    post(message);
  };
  const flush = () => {
    cancelTimer();
    if (waiting.length === 0) return;
    const steps = waiting;
    waiting = [];
    postNow(steps.length === 1 ? steps[0]! : { type: 'step/batch', steps });
  };

  return {
    send(message) {
      if (message.type === 'redaction/rects') return post(message);
      if (message.type !== 'step/observed') {
        flush();
        postNow(message);
        return;
      }
      waiting.push(message);
      if (waiting.length >= maxSteps || unbatched()) return flush();
      if (timer !== undefined) return;
      // At most a window: the clock may have been set back since the last post.
      const wait = Math.min(windowMs, lastPost + windowMs - now());
      if (wait <= 0) flush();
      else timer = setTimeout(flush, wait);
    },
    flush,
    dispose() {
      cancelTimer();
      waiting = [];
    },
  };
}

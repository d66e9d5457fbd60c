import type { Step } from '../../schemas/steps';
import { nearestFrame, type FrameInfo } from '../bundle-format/frame-time';

/** Whether a step acted on a place in the page (it carries its target's box or the pointer's point). */
export const actsOnPage = (step: Step): boolean => typeof step.target === 'object' && step.target !== null && (step.target.rect !== undefined || step.target.point !== undefined);

/**
 * The frame to show for a step. For an action on the page, the last frame captured at or before it:
 * the page as the action found it, where its target's box and point belong (the nearest frame may
 * already show what the action led to, a navigation's next page). Otherwise, and when no frame
 * precedes the step, the frame nearest its time. -1 without frames.
 * @example frameOfStep([{ ts: 0, duration_ms: 500 }, { ts: 500, duration_ms: 500 }], clickAt(450)) // 0
 */
export function frameOfStep(frames: readonly FrameInfo[], step: Step): number {
  const nearest = nearestFrame(frames, step.ts);
  if (!actsOnPage(step) || nearest < 0) return nearest;
  let lo = 0;
  let hi = frames.length - 1;
  let before = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (frames[mid]!.ts <= step.ts) {
      before = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return before < 0 ? nearest : before;
}

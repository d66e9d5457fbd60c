import { z } from 'zod';

/**
 * Why a frame was captured but not stored (its sensitive regions could not be placed on it):
 * - `no-report`: the tab's page has not reported its regions (since it loaded, or since its window changed);
 * - `stale-report`: the picture predates the page's reports (it may show the page before a navigation), or the
 *   page's answer was measured before the picture was taken (its masks may miss a key typed or a node added since);
 * - `viewport-mismatch`: the reports describe a viewport the picture cannot be mapped from;
 * - `page-unresponsive`: the page did not answer in time where its fields are (hung, starved);
 * - `not-recording`: recording stopped or paused while the frame was on its way.
 */
export const DROP_REASONS = ['no-report', 'stale-report', 'viewport-mismatch', 'page-unresponsive', 'not-recording'] as const;
export type DropReason = (typeof DROP_REASONS)[number];

const count = z.number().int().nonnegative();

/** Frames dropped since the recorder started, by reason (see `DROP_REASONS`). */
export const DroppedFramesByReasonSchema = z
  .object({ 'no-report': count, 'stale-report': count, 'viewport-mismatch': count, 'page-unresponsive': count, 'not-recording': count })
  .strict();
export type DroppedFramesByReason = z.infer<typeof DroppedFramesByReasonSchema>;

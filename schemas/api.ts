import { z } from 'zod';

/** `afr.fail(input)` */
export const FailInputSchema = z
  .object({
    tabId: z.number().int().optional(),
    reason: z.string().min(1).max(1024),
    label: z.string().max(1024).optional(),
  })
  .strict();
export type FailInput = z.infer<typeof FailInputSchema>;

/** `afr.step(input)`: an agent step added from the automation side. */
export const StepInputSchema = z
  .object({
    tabId: z.number().int().optional(),
    action: z.string().min(1).max(16 * 1024),
    target: z.string().max(16 * 1024).optional(),
    outcome: z.enum(['ok', 'fail']).optional(),
    label: z.string().max(1024).optional(),
  })
  .strict();
export type StepInput = z.infer<typeof StepInputSchema>;

/** One row of `afr.listBundles()`. */
export const BundleSummarySchema = z
  .object({
    id: z.string(),
    createdAt: z.string(),
    reason: z.string(),
    label: z.string().nullable(),
    tabId: z.number().int().nullable(),
    url: z.string().nullable(),
    sizeBytes: z.number().int().nonnegative(),
    downloadId: z.number().int().nullable(),
  })
  .strict();
export type BundleSummary = z.infer<typeof BundleSummarySchema>;

/** `afr.status()` */
export const StatusSchema = z
  .object({
    recording: z.boolean(),
    tabs: z.array(z.object({ tabId: z.number().int(), windowId: z.number().int(), url: z.string().nullable(), debugger: z.boolean() }).strict()),
    frames: z.number().int().nonnegative(),
    bytes: z.number().int().nonnegative(),
    fps: z.number().nonnegative(),
    oldestFrameAgeMs: z.number().nullable(),
    capturesOk: z.number().int().nonnegative(),
    captureErrors: z.number().int().nonnegative(),
    quotaErrors: z.number().int().nonnegative(),
    lastCaptureError: z.string().nullable(),
    steps: z.number().int().nonnegative(),
    bundles: z.number().int().nonnegative(),
    packaging: z.boolean(),
    runId: z.string(),
    version: z.string(),
  })
  .strict();
export type Status = z.infer<typeof StatusSchema>;

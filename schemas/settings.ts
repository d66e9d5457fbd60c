import { z } from 'zod';

/** Every recorder setting, with its default. The API, the storage layer and the docs all read this. */
export const SettingsSchema = z
  .object({
    /** Seconds of history the frame ring keeps before a failure. */
    bufferSeconds: z.number().int().min(1).max(300).default(15),
    /** Upper bound of the frame ring in bytes; the oldest frames are evicted first. */
    maxBufferBytes: z
      .number()
      .int()
      .min(1024 * 1024)
      .max(2 * 1024 * 1024 * 1024)
      .default(64 * 1024 * 1024),
    /** Milliseconds between two `captureVisibleTab` calls; Chrome allows 2 calls a second. */
    captureIntervalMs: z.number().int().min(550).max(10_000).default(550),
    /** JPEG quality of captured frames, 1–100. */
    jpegQuality: z.number().int().min(1).max(100).default(70),
    /** Take a frame right after each observed action, within the capture quota. */
    captureOnAction: z.boolean().default(true),
    /** Save each bundle to the downloads folder as `agent-flight-recorder/<bundleId>.zip`. */
    autoDownload: z.boolean().default(true),
    /** After a bundle is made for a tab, further failures of that tab within this window are ignored. */
    failureCooldownMs: z.number().int().min(0).max(600_000).default(10_000),
    /** Bundle on a main-frame document response with status ≥ 500. */
    triggerOnHttp5xx: z.boolean().default(true),
    /** Bundle on uncaught exceptions and unhandled rejections in the page. */
    triggerOnPageException: z.boolean().default(true),
    /** Encode `failure.mp4` from the frames. */
    encodeClip: z.boolean().default(true),
    /** Bundles kept in the extension's bundle store; the oldest are deleted past this. */
    maxStoredBundles: z.number().int().min(1).max(1000).default(20),
  })
  .strict();

export type Settings = z.infer<typeof SettingsSchema>;

/** A partial update accepted by `afr.configure()`; unknown keys are rejected. */
export const SettingsPatchSchema = SettingsSchema.partial().strict();
export type SettingsPatch = z.infer<typeof SettingsPatchSchema>;

export const DEFAULT_SETTINGS: Settings = SettingsSchema.parse({});

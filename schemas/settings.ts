import { z } from 'zod';
import { SignalRulesPatchSchema, SignalRulesSchema } from './signals';
import { CaptureLevelSchema } from './capture-level';

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
    /** What each kind of signal does: trigger a bundle, only go on the timeline, or nothing; with filters. */
    signals: SignalRulesSchema.default(SignalRulesSchema.parse({})),
    /** `on_fail`: bundle on failures; `always`: also bundle every run at `runEnd`; `manual`: only on request. */
    persistMode: z.enum(['on_fail', 'always', 'manual']).default('on_fail'),
    /** How much is captured: off < metadata < trace < screenshots < video = full. */
    captureLevel: CaptureLevelSchema.default('full'),
    /** Encode `failure.mp4` from the frames. */
    encodeClip: z.boolean().default(true),
    /** Bundles kept in the extension's bundle store; the oldest are deleted past this. */
    maxStoredBundles: z.number().int().min(1).max(1000).default(20),
  })
  .strict();

export type Settings = z.infer<typeof SettingsSchema>;

/**
 * A partial update accepted by `afr.configure()`; unknown keys are rejected. `signals` is merged
 * rule by rule and field by field: `{ signals: { http_4xx: { action: 'trigger' } } }` changes one field.
 */
export const SettingsPatchSchema = z
  .object(
    // Without the defaults: a field the caller did not name must stay absent, not come back as its default.
    Object.fromEntries(Object.entries(SettingsSchema.shape).map(([key, field]) => [key, field.unwrap().optional()])) as {
      [K in keyof typeof SettingsSchema.shape]: z.ZodOptional<ReturnType<(typeof SettingsSchema.shape)[K]['unwrap']>>;
    },
  )
  .extend({ signals: SignalRulesPatchSchema.optional() })
  .strict();
export type SettingsPatch = z.infer<typeof SettingsPatchSchema>;

export const DEFAULT_SETTINGS: Settings = SettingsSchema.parse({});

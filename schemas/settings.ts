import { z } from 'zod';
import { SignalRulesPatchSchema, SignalRulesSchema } from './signals';
import { CaptureLevelSchema } from './capture-level';
import { RedactionRulesSchema } from './redaction-rules';
import { UploadSettingsSchema } from './upload';
import { NetworkSettingsSchema } from './network';

export { RedactionRulesSchema, type RedactionRules } from './redaction-rules';

/** Whether `s` is an origin written as the browser writes one (`new URL(s).origin === s`). */
function isOrigin(s: string): boolean {
  try {
    return new URL(s).origin === s;
  } catch {
    return false;
  }
}

/** `*.example.com`: a host and every host under it. */
const HOST_WILDCARD = /^\*\.(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** An entry of `scopeOrigins`: an exact origin of a web page, or a `*.host` wildcard. */
const ScopeOriginSchema = z
  .string()
  .max(256)
  .refine(
    (s) => HOST_WILDCARD.test(s) || (/^https?:\/\/[a-z0-9.:[\]-]+$/.test(s) && isOrigin(s)),
    'an origin such as https://shop.example (scheme and host, lower case, no path) or a host wildcard such as *.example.com',
  );

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
    /**
     * Byte cap of the DOM timeline kept in IndexedDB (capture level `trace` and up): every recorded
     * document's base and changes, estimated as JSON; the oldest documents go first, then the oldest
     * changes of a document are folded into its base.
     */
    maxTimelineBytes: z
      .number()
      .int()
      .min(1024 * 1024)
      .max(512 * 1024 * 1024)
      .default(16 * 1024 * 1024),
    /**
     * Where frames come from: `screencast` (CDP `Page.startScreencast` through the recorder's debugger
     * session, up to `fps`), `visibleTab` (`chrome.tabs.captureVisibleTab`, about 2 a second, the visible
     * tab only), or `auto`: screencast where the debugger is attached, visibleTab elsewhere.
     */
    captureSource: z.enum(['auto', 'screencast', 'visibleTab']).default('auto'),
    /** Frames per second kept from the screencast. */
    fps: z.number().int().min(1).max(30).default(8),
    /** Largest screencast frame size, CSS pixels scaled down to fit. */
    maxWidth: z.number().int().min(160).max(3840).default(1280),
    maxHeight: z.number().int().min(120).max(2160).default(720),
    /** Milliseconds between two `captureVisibleTab` calls; Chrome allows 2 calls a second. */
    captureIntervalMs: z.number().int().min(550).max(10_000).default(550),
    /** JPEG quality of captured frames, 1–100. */
    jpegQuality: z.number().int().min(1).max(100).default(70),
    /** Take a frame right after each observed action, within the capture quota. */
    captureOnAction: z.boolean().default(true),
    /** Save each bundle to the downloads folder as `agent-flight-recorder/<bundleId>.zip`. */
    autoDownload: z.boolean().default(true),
    /** Seconds recording goes on after a failure signal before the bundle is packaged, so the clip shows what happened next. */
    postFailureSeconds: z.number().min(0).max(30).default(2),
    /** After a bundle is made for a tab, further failures of that tab within this window are ignored. */
    failureCooldownMs: z.number().int().min(0).max(600_000).default(10_000),
    /** What each kind of signal does: trigger a bundle, only go on the timeline, or nothing; with filters. */
    signals: SignalRulesSchema.default(SignalRulesSchema.parse({})),
    /** `on_fail`: bundle on failures; `always`: also bundle every run at `runEnd`; `manual`: only on request. */
    persistMode: z.enum(['on_fail', 'always', 'manual']).default('on_fail'),
    /** How much is captured: off < metadata < trace < screenshots < video = full. */
    captureLevel: z._default(CaptureLevelSchema, 'full'),
    /** Encode `failure.mp4` from the frames. */
    encodeClip: z.boolean().default(true),
    /** Bundles kept in the extension's bundle store; the oldest are deleted past this. */
    maxStoredBundles: z.number().int().min(1).max(1000).default(20),
    /** Total size of the stored bundles; the oldest are deleted past this (the newest is always kept). */
    maxStoredBundleBytes: z
      .number()
      .int()
      .min(1024 * 1024)
      .max(16 * 1024 * 1024 * 1024)
      .default(512 * 1024 * 1024),
    /** Stored bundles older than this many days are deleted. */
    bundleRetentionDays: z.number().min(0.01).max(3650).default(30),
    /**
     * Origins of frames inside the page (`https://agent.example`, as the browser writes an origin: no
     * path, no default port) whose page protocol commands count like the top frame's. Empty: only the
     * top frame speaks for the page; an ad or embed in an iframe never does.
     */
    pageCommandFrameOrigins: z
      .array(
        z
          .string()
          .max(256)
          .regex(/^[a-z][a-z0-9+.-]*:\/\/[^\s/?#@]+$/, 'an origin such as https://agent.example (scheme and host, lower case, no path)')
          .refine(isOrigin, 'an origin as the browser writes it: no default port, no trailing slash'),
      )
      .max(64)
      .default([]),
    /**
     * Which tabs are recorded: `all` (every tab; right for a browser profile only agents use), `agent`
     * (tabs the agent drives: the tab of its `afr.runStart`, tabs opened while its run is active or
     * from one of its tabs), `chosen` (tabs the operator chose in the popup, and tabs whose page is of an
     * origin in `scopeOrigins`). Outside the scope nothing is captured, observed or bundled.
     */
    scope: z.enum(['all', 'agent', 'chosen']).default('all'),
    /**
     * With `scope: 'chosen'`, tabs whose page is of one of these are recorded: an origin as the browser
     * writes one (`https://shop.example`, `http://127.0.0.1:8080`) or `*.example.com` (that host and
     * every host under it, http or https).
     */
    scopeOrigins: z.array(ScopeOriginSchema).max(64).default([]),
    /** List the other recorded tabs' activity in `diagnostics.json` (`other_tabs`); never tabs outside the scope. */
    diagnosticsOtherTabs: z.boolean().default(false),
    /** Redaction on top of the built-in rules, applied in the content script like them. */
    redaction: z._default(RedactionRulesSchema, { selectors: [], fieldNamePatterns: [], textPatterns: [] }),
    /**
     * Each recorded tab's requests, masked, for the bundle's `network.har`: which bodies are kept
     * (`bodies`), and the per-tab, per-body and per-bundle bounds (see `NetworkSettingsSchema`).
     */
    network: z._default(NetworkSettingsSchema, NetworkSettingsSchema.parse({})),
    /** Delivery of stored bundles to S3-compatible storage (see `UploadSettingsSchema`); off by default. */
    upload: z._default(UploadSettingsSchema, UploadSettingsSchema.parse({})),
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
    Object.fromEntries(Object.entries(SettingsSchema.shape).map(([key, field]) => [key, z.optional(field.unwrap())])) as {
      [K in keyof typeof SettingsSchema.shape]: z.ZodOptional<ReturnType<(typeof SettingsSchema.shape)[K]['unwrap']>>;
    },
  )
  .extend({ signals: SignalRulesPatchSchema.optional() })
  .strict();
export type SettingsPatch = z.infer<typeof SettingsPatchSchema>;

export const DEFAULT_SETTINGS: Settings = SettingsSchema.parse({});

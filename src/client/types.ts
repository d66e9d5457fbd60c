/**
 * The contract of the recorder's automation API (`globalThis.afr` in the extension's service worker),
 * written out by hand so the built client needs nothing from `schemas/` at run time or in its `.d.ts`.
 * `contract.test.ts` fails the type check when these drift from the zod schemas.
 */

/** `rec.runStart(...)`: opens a run on the timeline (default tab: the visible one). */
export interface RunStartOptions {
  tabId?: number;
  /** Letters, digits, `_ . : -`; the recorder makes one up when absent. */
  runId?: string;
  agent?: string;
  agentVersion?: string;
  task?: string;
}

/** `rec.runEnd(...)`: closes the run; with `persistMode: 'always'` the run is bundled. */
export interface RunEndOptions {
  tabId?: number;
  outcome?: 'passed' | 'failed';
  label?: string;
}

/** `rec.step(...)`: one agent step on the timeline. */
export interface StepOptions {
  tabId?: number;
  action: string;
  target?: string;
  outcome?: 'ok' | 'fail';
  label?: string;
  /** What the agent was trying to achieve (masked like page text). */
  goal?: string;
  /** The agent's stated reasoning (masked like page text). */
  reasoning?: string;
}

/** `rec.toolCall(...)`: one of the agent's tool calls (masked by the recorder before it is kept). */
export interface ToolCallOptions {
  tabId?: number;
  tool: string;
  /** Any plain JSON (at most 256 KiB of JSON text, 32 levels deep); no binary. */
  input?: unknown;
  output?: unknown;
  status: 'ok' | 'error' | 'timeout' | 'skipped';
  latencyMs?: number;
  error?: string;
}

/** `rec.modelCall(...)`: one of the agent's model calls (masked by the recorder before it is kept). */
export interface ModelCallOptions {
  tabId?: number;
  model: string;
  messages?: { role: string; content: string }[];
  /** The model's answer: text or any plain JSON. */
  response?: unknown;
  tokensIn?: number;
  tokensOut?: number;
  latencyMs?: number;
  temperature?: number;
  maxTokens?: number;
  /** What the call cost, in US dollars. */
  costUsd?: number;
}

/** `rec.assert(...)`: a check; a failed one makes a bundle. */
export interface AssertOptions {
  tabId?: number;
  label: string;
  passed: boolean;
  expected?: string;
  actual?: string;
  reasoning?: string;
}

/** `rec.mark(...)`: a named point on the timeline. */
export interface MarkOptions {
  tabId?: number;
  label: string;
  reasoning?: string;
}

/** `rec.fail(...)`: declares a failure; the recorder bundles the tab. */
export interface FailOptions {
  tabId?: number;
  /** A short code such as `assertion_failed`, 1–1024 characters. */
  reason: string;
  label?: string;
}

/** One stored bundle, as `rec.bundles()` lists it (newest first). */
export interface BundleSummary {
  id: string;
  createdAt: string;
  reason: string;
  label: string | null;
  tabId: number | null;
  url: string | null;
  sizeBytes: number;
  downloadId: number | null;
  /** Who asked for it; a page's bundles are never downloaded on their own and are deleted first. */
  trigger?: BundleTrigger;
  /** A signal's bundle made while no agent run was active on its tab: held to a quota, deleted first. */
  unattended?: boolean;
  /** Its delivery to object storage, while the `upload` setting is on. */
  upload?: BundleUpload;
}

/** A bundle's delivery to object storage (`BundleSummary.upload`). */
export interface BundleUpload {
  state: 'pending' | 'uploading' | 'delivered' | 'failed' | 'skipped';
  /** The zip's key in the bucket, once delivered. */
  key?: string;
  attempts: number;
  /** The store's last answer when it went wrong (retried while `pending`; `failed` waits for other settings). */
  lastError?: string;
}

/** `rec.waitDelivered()` */
export interface WaitDeliveredOptions {
  /** Default 60 s. */
  timeoutMs?: number;
}

/** Who asked for a bundle (`BundleSummary.trigger`): `signal` is one the recorder made on its own. */
export type BundleTrigger = 'agent' | 'operator' | 'page' | 'signal';

/** `rec.waitForBundle(...)`: which bundle to wait for, and how long. */
export interface WaitForBundleOptions {
  /**
   * Where the wait starts: a time (`Date`, ms since the epoch, or an ISO 8601 string), meaning bundles
   * created at or after it, or a bundle id, meaning bundles created after that bundle. Take it before
   * the action that may fail (a bundle is stored seconds after its failure). Default: the moment of
   * the call.
   */
  since?: Date | number | string;
  /** Only a bundle with this reason (`http_5xx`, `exception`, `crash`, `assertion_failed`, `agent_failure`…). */
  reason?: string;
  /** Only a bundle of this trigger (`signal`: one the recorder made on its own). */
  trigger?: BundleTrigger;
  /** How long to wait before rejecting with `RecorderTimeoutError`. Default 30 000 ms. */
  timeoutMs?: number;
}

/** `afr.waitForBundle(input)`: one wait in the service worker, at most 60 000 ms. */
export interface WaitForBundleInput {
  since?: number | string;
  reason?: string;
  trigger?: BundleTrigger;
  timeoutMs: number;
}

/**
 * `rec.status().downloads`: what became of the latest bundle the recorder downloaded since its service
 * worker started. `managedByDriver`: Chrome did not write `<downloads>/agent-flight-recorder/<id>.zip`
 * (under Playwright the file is `<temporary folder>/<uuid>`, deleted with the browser).
 */
export interface DownloadsStatus {
  lastBundleId: string | null;
  lastPath: string | null;
  state: 'complete' | 'interrupted' | null;
  error: string | null;
  managedByDriver: boolean;
  /** What happened and how to keep bundles (`rec.saveBundle`), when something is wrong; else null. */
  hint: string | null;
}

/** How much the recorder captures, in increasing order. */
export type CaptureLevel = 'off' | 'metadata' | 'trace' | 'screenshots' | 'video' | 'full';

export type PersistMode = 'on_fail' | 'always' | 'manual';

/** `rec.status()` */
export interface RecorderStatus {
  recording: boolean;
  /** Paused by the operator: no frames, steps or signals until resumed. */
  paused: boolean;
  tabs: {
    tabId: number;
    windowId: number;
    url: string | null;
    debugger: boolean;
    debuggerError: string | null;
    signals: 'debugger' | 'page';
    /** Where this tab's frames come from. */
    source: 'screencast' | 'visibleTab';
    /** The run the tab's page declared while the agent has none, else null. */
    pageRunId: string | null;
  }[];
  frames: number;
  bytes: number;
  fps: number;
  oldestFrameAgeMs: number | null;
  capturesOk: number;
  captureErrors: number;
  quotaErrors: number;
  lastCaptureError: string | null;
  /** Frames not stored because their sensitive regions were not known in time. */
  droppedFrames: number;
  /** The frames dropped, by why: their sensitive regions could not be placed on them (absent from older recorders). */
  droppedFramesByReason?: Record<'no-report' | 'stale-report' | 'viewport-mismatch' | 'page-unresponsive' | 'not-recording', number>;
  /**
   * Frames in the ring that show less than their page's viewport (CSS px: the latest one's `viewport`
   * and the part `shown`), with what to do in `warning` (launch with --silent-debugger-extension-api);
   * null while every frame shows it all (absent from older recorders).
   */
  viewportCut?: {
    frames: number;
    tabId: number;
    viewport: { width: number; height: number };
    shown: { width: number; height: number };
    warning: string;
  } | null;
  /**
   * Storage quota trouble: the ring deleted its older frames and went on recording, keeping frames in
   * memory (`framesInMemory`, lost if the worker stops) while IndexedDB still refused them.
   */
  storage: { quotaErrors: number; lastError: string | null; framesInMemory: number };
  steps: number;
  bundles: number;
  packaging: boolean;
  /** Why the latest bundle the recorder set out to write could not be written, else null (absent from older recorders). */
  lastBundleError?: string | null;
  runId: string;
  run: {
    active: boolean;
    agent: string | null;
    agentVersion: string | null;
    task: string | null;
    startedAt: string | null;
  };
  captureLevel: CaptureLevel;
  persistMode: PersistMode;
  version: string;
  /** What pages sent that the recorder refused or dropped since its service worker started. */
  pageLimits: {
    framesRefused: number;
    runCommandsRefused: number;
    commandsDropped: number;
    stepsDropped: number;
    errorsDropped: number;
    bundlesRefused: number;
    /** Signal bundles refused past their quota while no agent run was active (absent from older recorders). */
    signalBundlesRefused?: number;
    /** DOM timeline messages over their tab's quota of characters (absent from older recorders). */
    timelineDropped?: number;
  };
  /** The latest bundle download; absent from recorders older than this client. */
  downloads?: DownloadsStatus;
  /** Delivery to object storage; absent from recorders older than this client. */
  upload?: {
    mode: 'off' | 's3' | 'presigned';
    queued: number;
    uploading: number;
    delivered: number;
    failed: number;
    skipped: number;
    lastError: string | null;
    lastDeliveredAt: string | null;
    managed: boolean;
    heldByRetention: number;
    /** Bundles waiting for delivery in the worker's memory only (IndexedDB and extension storage refused them). */
    memoryOnly?: number;
  };
}

/** Kinds of failure signal the recorder sees by itself. */
export type SignalKind = 'exception' | 'console_error' | 'http_5xx' | 'http_4xx' | 'network_failure' | 'app_error' | 'crash' | 'dialog' | 'tool_error' | 'tool_latency' | 'no_tool_calls';

/** What the recorder does with one kind of signal. */
export interface SignalRule {
  enabled: boolean;
  /** `trigger` makes a bundle; `record` only puts the signal on the timeline. */
  action: 'trigger' | 'record';
  urls: string[];
  ignoreUrls: string[];
  statuses: number[];
  ignoreMessages: string[];
  resourceTypes: string[];
  /** `app_error`: top-level JSON fields that make a 2xx answer a failure (`error`, `ok=false`…); empty: the defaults. */
  jsonFields: string[];
  /** `tool_latency`: a tool call slower than this many milliseconds is a signal. */
  thresholdMs?: number;
  /** `no_tool_calls`: this many agent steps in a row without a tool call is a signal. */
  steps?: number;
}

/** Extra redaction: CSS selectors, field-name and text patterns (regular expression sources). */
export interface RedactionRules {
  selectors: string[];
  fieldNamePatterns: string[];
  textPatterns: string[];
}

/** Every recorder setting (see docs/signals-and-settings.md, "Settings"). */
export interface RecorderSettings {
  bufferSeconds: number;
  maxBufferBytes: number;
  /** `auto` (screencast where the debugger is attached), `screencast` or `visibleTab`. */
  captureSource: 'auto' | 'screencast' | 'visibleTab';
  /** Frames per second kept from the screencast (1–30). */
  fps: number;
  maxWidth: number;
  maxHeight: number;
  captureIntervalMs: number;
  jpegQuality: number;
  captureOnAction: boolean;
  autoDownload: boolean;
  failureCooldownMs: number;
  /** Seconds recording goes on after a failure before the bundle is packaged. */
  postFailureSeconds: number;
  signals: Record<SignalKind, SignalRule>;
  persistMode: PersistMode;
  captureLevel: CaptureLevel;
  encodeClip: boolean;
  maxStoredBundles: number;
  maxStoredBundleBytes: number;
  bundleRetentionDays: number;
  /** Origins of frames inside the page whose page commands count like the top frame's. */
  pageCommandFrameOrigins: string[];
  /** Redaction on top of the built-in rules. */
  redaction: RedactionRules;
}

/** `rec.configure(patch)`: any subset of the settings; `signals` is merged rule by rule, field by field. */
export type SettingsPatch = Partial<Omit<RecorderSettings, 'signals'>> & {
  signals?: { [K in SignalKind]?: Partial<SignalRule> };
};

/** `globalThis.afr` as the service worker exposes it. Errors reject with a message. */
export interface AfrApi {
  status(): Promise<RecorderStatus>;
  fail(input: FailOptions): Promise<string>;
  step(input: StepOptions): Promise<void>;
  assert(input: AssertOptions): Promise<string | null>;
  mark(input: MarkOptions): Promise<void>;
  toolCall(input: ToolCallOptions): Promise<void>;
  modelCall(input: ModelCallOptions): Promise<void>;
  runStart(input: RunStartOptions): Promise<string>;
  runEnd(input: RunEndOptions): Promise<string | null>;
  listBundles(): Promise<BundleSummary[]>;
  exportBundle(id: string): Promise<string>;
  deleteBundle(id: string): Promise<boolean>;
  /** Absent from recorders older than this client: the client then polls `listBundles`. */
  waitForBundle(input: WaitForBundleInput): Promise<BundleSummary | null>;
  configure(patch: SettingsPatch): Promise<RecorderSettings>;
  getSettings(): Promise<RecorderSettings>;
}

export type AfrMethod = keyof AfrApi;

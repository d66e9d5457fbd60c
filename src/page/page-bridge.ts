import type { AgentCommandMessage, PageErrorSignalMessage } from '../../schemas/messages';
import type { AgentCommand } from '../../schemas/agent';
import type { CheckpointRef } from '../../schemas/timeline';
import { PAGE_LIMITS, PAGE_MESSAGE_SCHEMAS, PAGE_PROTOCOL_SOURCE, type PageMessage } from '../../schemas/page-protocol';
import type { TextMasker } from '../redact/mask-text';
import { maskCommand } from '../redact/mask-command';
import { createTextMaskCounts } from '../redact/redaction-counts';
import { redactUrl, redactUrlsInText } from '../redact/redact-url';
import { PAGE_ERROR_SOURCE, type PageErrorPost } from './page-errors';
import { TokenBucket } from '../shared/token-bucket';
import { PAGE_ERROR_LIMITS } from '../../schemas/content-port';

export type PageBridgeMessage = AgentCommandMessage;

export interface FlatMessageLimits {
  maxKeys: number;
  maxStringChars: number;
  maxTotalChars: number;
  /** Fields that may hold a finite number. */
  numbers?: ReadonlySet<string>;
}

/**
 * Why `data` is not a small flat record of strings and booleans (and the numbers allowed), or null when it is. Runs before any schema so a
 * page cannot make the recorder walk a huge array or a deep object: it looks at a few own keys only.
 */
export function checkFlatMessage(data: unknown, limits: FlatMessageLimits): string | null {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return 'not an object';
  // Plain objects from any realm: their prototype is some realm's Object.prototype (or null).
  const proto: unknown = Object.getPrototypeOf(data);
  if (proto !== null && Object.getPrototypeOf(proto) !== null) return 'not a plain object';
  let keys = 0;
  let total = 0;
  for (const key in data) {
    if (++keys > limits.maxKeys) return 'too many fields';
    const value: unknown = (data as Record<string, unknown>)[key];
    if (value === undefined || value === null || typeof value === 'boolean') continue;
    if (typeof value === 'number' && limits.numbers?.has(key) && Number.isFinite(value)) continue;
    if (typeof value !== 'string') return `field "${key.slice(0, 40)}" is not a string`;
    if (value.length > limits.maxStringChars) return `field "${key.slice(0, 40)}" is too long`;
    total += value.length;
    if (total > limits.maxTotalChars) return 'message is too long';
  }
  return null;
}

const PAGE_MESSAGE_LIMITS: FlatMessageLimits = {
  maxKeys: 9,
  maxStringChars: PAGE_LIMITS.stepChars,
  maxTotalChars: PAGE_LIMITS.stepChars + 64,
};

export interface PageBridgeOptions {
  now?: () => number;
  warn?: (message: string) => void;
  /** The DOM timeline's checkpoint now (top frame, capture level `trace`), for a `step`, `assert` or `mark`. */
  checkpoint?: (label: string) => CheckpointRef | null;
}

/** The checkpoint label of a page command, as the worker would ask for it (`step open the shop`, `assert cart shows 2`). */
function checkpointLabel(command: AgentCommand): string | null {
  if (command.kind === 'step') return `step ${command.action}`;
  if (command.kind === 'assert' || command.kind === 'mark') return `${command.kind} ${command.label}`;
  return null;
}

/** Warnings about one page's messages: at most 20 per 10 s, so a noisy page cannot flood the console. */
export function createRateLimitedWarn(warn: (message: string) => void, now: () => number): (message: string) => void {
  const bucket = new TokenBucket(20, 2, now());
  let suppressed = 0;
  return (message) => {
    if (!bucket.take(now())) {
      suppressed++;
      return;
    }
    warn(suppressed ? `${message} (${suppressed} more warnings suppressed)` : message);
    suppressed = 0;
  };
}

const PAGE_TYPES = Object.keys(PAGE_MESSAGE_SCHEMAS) as (keyof typeof PAGE_MESSAGE_SCHEMAS)[];

/**
 * A page message checked against the schema of its `type`, or why it is not one: its type unknown,
 * or the first problem with the field that has it (e.g. `"step": action: Invalid input: expected
 * string, received undefined`), so an agent's author sees what to fix.
 */
export function parsePageMessage(data: unknown): PageMessage | string {
  const type = (data as { type?: unknown }).type;
  if (typeof type !== 'string' || !Object.hasOwn(PAGE_MESSAGE_SCHEMAS, type)) {
    const shown = typeof type === 'string' ? `"${type.slice(0, 40)}"` : typeof type;
    return `type ${shown} is none of ${PAGE_TYPES.join(', ')}`;
  }
  const parsed = PAGE_MESSAGE_SCHEMAS[type as keyof typeof PAGE_MESSAGE_SCHEMAS].safeParse(data);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  if (!issue) return `"${type}": invalid`;
  const field = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  return `"${type}": ${field}${issue.message}`;
}

/**
 * Listens for the public page protocol: `window.postMessage({ source: 'agent-flight-recorder',
 * type: 'step' | 'assert' | 'mark' | 'runStart' | 'runEnd' | 'fail', … }, '*')` from the page itself.
 * Malformed, unknown or oversized messages are dropped with a (rate-limited) warning; valid ones are
 * rate-limited (50/s with bursts of 100; `fail` 5 per 10 s), their text masked (with the current
 * `masker`), and passed to `emit`
 * as `agent/command`. Never throws. Returns a dispose function.
 */
export function startPageBridge(
  win: Window,
  emit: (message: PageBridgeMessage) => void,
  masker: () => TextMasker,
  opts: PageBridgeOptions = {},
): () => void {
  const now = opts.now ?? Date.now;
  const warn = createRateLimitedWarn(opts.warn ?? ((m) => console.warn(`[afr] ${m}`)), now);
  const steps = new TokenBucket(100, 50, now());
  const fails = new TokenBucket(5, 0.5, now());

  const onMessage = (event: MessageEvent) => {
    try {
      if (event.source !== win) return;
      const data: unknown = event.data;
      if ((data as { source?: unknown } | null)?.source !== PAGE_PROTOCOL_SOURCE) return;
      const problem = checkFlatMessage(data, PAGE_MESSAGE_LIMITS);
      if (problem) return warn(`page message ignored: ${problem}`);
      const parsed = parsePageMessage(data);
      if (typeof parsed === 'string') return warn(`page message ignored: ${parsed}`);
      const { source: _source, type, ...fields } = parsed;
      if (type === 'fail' ? !fails.take(now()) : !steps.take(now())) {
        return warn(`page "${type}" message dropped: ${type === 'fail' ? 'more than 5 in 10 s' : 'more than 50 per second'}`);
      }
      const m = masker();
      const command = maskCommand({ kind: type, ...fields } as AgentCommand, m);
      const ts = now();
      // The page as it is now, taken here: the step is stamped now, and its page must be the same moment.
      const label = opts.checkpoint ? checkpointLabel(command) : null;
      const checkpoint = label === null ? null : opts.checkpoint!(label);
      emit({ type: 'agent/command', ts, url: redactUrl(win.location.href, m), command, ...(checkpoint ? { checkpoint } : {}) });
    } catch (err) {
      console.warn('[afr] page protocol bridge failed', err);
    }
  };
  win.addEventListener('message', onMessage);
  return () => win.removeEventListener('message', onMessage);
}

const KINDS = new Set<string>(['error', 'unhandledrejection']);
/** A page error's own time is taken when its relay runs at most this much later. */
const PAGE_ERROR_MAX_DELAY_MS = 5_000;
const POST_KEYS = new Set(['source', 'kind', 'message', 'stack', 'ts']);
const POST_NUMBERS: ReadonlySet<string> = new Set(['ts']);

/** Checks what the page-world forwarder posted (the page may post the same tag itself). */
function validPost(data: unknown, warn: (m: string) => void): PageErrorPost | null {
  const problem = checkFlatMessage(data, {
    maxKeys: 5,
    numbers: POST_NUMBERS,
    maxStringChars: PAGE_ERROR_LIMITS.stackChars,
    maxTotalChars: PAGE_ERROR_LIMITS.messageChars + PAGE_ERROR_LIMITS.stackChars + 64,
  });
  const d = data as Partial<PageErrorPost>;
  const reason =
    problem ??
    (Object.keys(d).some((k) => !POST_KEYS.has(k)) ? 'unknown field' : null) ??
    (!KINDS.has(d.kind as string) ? 'unknown kind' : null) ??
    (typeof d.message !== 'string' || d.message.length > PAGE_ERROR_LIMITS.messageChars ? 'bad message' : null) ??
    (d.ts !== undefined && typeof d.ts !== 'number' ? 'bad ts' : null);
  if (reason) {
    warn(`page error report ignored: ${reason}`);
    return null;
  }
  return { source: PAGE_ERROR_SOURCE, kind: d.kind!, message: d.message!, stack: d.stack ?? null, ts: d.ts ?? Number.NaN };
}

/**
 * The isolated world's half: takes what `installPageErrorForwarder` posts, checks it, redacts URLs and
 * masks secrets in message and stack with the context's masker (`masker` gives the current one), and passes `signal/page-error` to `emit` (at most 10 at
 * once, then 1 per second). The background uses it only when its debugger session is not attached.
 */
export function startPageErrorRelay(
  win: Window,
  emit: (message: PageErrorSignalMessage) => void,
  masker: () => TextMasker,
  opts: PageBridgeOptions = {},
): () => void {
  const now = opts.now ?? Date.now;
  const warn = createRateLimitedWarn(opts.warn ?? ((m) => console.warn(`[afr] ${m}`)), now);
  const bucket = new TokenBucket(10, 1, now());
  const clean = (s: string, cap: number, m: TextMasker) => {
    const counts = createTextMaskCounts();
    return m.maskAndCap(redactUrlsInText(s, m, counts), cap, counts);
  };
  const onMessage = (event: MessageEvent) => {
    try {
      if (event.source !== win) return;
      const data: unknown = event.data;
      if ((data as { source?: unknown } | null)?.source !== PAGE_ERROR_SOURCE) return;
      const post = validPost(data, warn);
      if (!post) return;
      if (!bucket.take(now())) return warn('page error report dropped: more than 1 per second');
      // When it was thrown, as the page says, unless that is not a moment ago (the page may post this itself).
      const received = now();
      const m = masker();
      emit({
        type: 'signal/page-error',
        ts: post.ts <= received && received - post.ts <= PAGE_ERROR_MAX_DELAY_MS ? post.ts : received,
        url: redactUrl(win.location.href, m),
        kind: post.kind,
        message: clean(post.message, PAGE_ERROR_LIMITS.messageChars, m),
        stack: post.stack === null ? null : clean(post.stack, PAGE_ERROR_LIMITS.stackChars, m),
      });
    } catch (err) {
      console.warn('[afr] page error relay failed', err);
    }
  };
  win.addEventListener('message', onMessage);
  return () => win.removeEventListener('message', onMessage);
}

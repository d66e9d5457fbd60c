import type { SignalKind, SignalRule, SignalRules } from '../../schemas/signals';

/** A signal as observed, before the rules decide what it means. */
export interface RawSignal {
  kind: SignalKind;
  tabId: number | null;
  /** The page the signal happened in. */
  pageUrl: string | null;
  ts: number;
  message: string;
  stack: string | null;
  /** Network signals: the request concerned. */
  request: RawRequest | null;
  /** Where it was seen: the debugger, `chrome.webRequest`, the page, or the agent's own calls (`afr.toolCall`, `afr.step`). */
  origin: 'debugger' | 'web_request' | 'page_fallback' | 'agent';
}

export interface RawRequest {
  url: string;
  method: string | null;
  status: number | null;
  resourceType: string | null;
  durationMs: number | null;
  errorText: string | null;
  /** CDP's id of the request (debugger signals): its `network.har` entry carries it as `_requestId`. */
  requestId?: string;
  /** `app_error`: the answer's masked excerpt. */
  excerpt?: string;
}

export type Disposition = 'trigger' | 'record' | 'ignore';

const regexCache = new Map<string, RegExp>();

function compiled(source: string, flags = ''): RegExp {
  const key = `${flags}/${source}`;
  let re = regexCache.get(key);
  if (!re) {
    re = new RegExp(source, flags);
    if (regexCache.size > 500) regexCache.clear();
    regexCache.set(key, re);
  }
  return re;
}

/**
 * Whether `url` matches a pattern: `/regex/` between slashes, or a glob where `*` matches any run of
 * characters and the rest is literal (`https://shop.test/api/*`, `*.png`, `*analytics*`).
 */
export function matchesUrlPattern(url: string, pattern: string): boolean {
  if (pattern.length > 2 && pattern.startsWith('/') && pattern.endsWith('/')) {
    try {
      return compiled(pattern.slice(1, -1)).test(url);
    } catch {
      return false;
    }
  }
  const glob = pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*');
  return compiled(`^${glob}$`, 'i').test(url);
}

const STATUS_CLASS: Partial<Record<SignalKind, [number, number]>> = { http_4xx: [400, 499], http_5xx: [500, 599], app_error: [200, 299] };

/** Why a rule filters the signal out, or null when it applies. */
function filteredOut(rule: SignalRule, signal: RawSignal): string | null {
  const url = signal.request?.url ?? signal.pageUrl ?? '';
  if (rule.ignoreUrls.some((p) => matchesUrlPattern(url, p))) return 'URL is ignored';
  if (rule.urls.length > 0 && !rule.urls.some((p) => matchesUrlPattern(url, p))) return 'URL is not one of the rule’s';
  const status = signal.request?.status ?? null;
  const range = STATUS_CLASS[signal.kind];
  if (range && (status === null || status < range[0] || status > range[1])) return 'status outside the class';
  if (rule.statuses.length > 0 && (status === null || !rule.statuses.includes(status))) return 'status not listed';
  const type = signal.request?.resourceType ?? null;
  if (rule.resourceTypes.length > 0 && (type === null || !rule.resourceTypes.includes(type))) return 'resource type not listed';
  if (rule.ignoreMessages.some((source) => compiled(source).test(signal.message))) return 'message is ignored';
  return null;
}

/** What the rules make of a signal: bundle it (`trigger`), put it on the timeline (`record`), or drop it. */
export function evaluateSignal(rules: SignalRules, signal: RawSignal): { disposition: Disposition; why: string } {
  const rule = rules[signal.kind];
  if (!rule.enabled) return { disposition: 'ignore', why: `${signal.kind} signals are switched off` };
  const why = filteredOut(rule, signal);
  if (why) return { disposition: 'ignore', why };
  return { disposition: rule.action, why: `${signal.kind} rule: ${rule.action}` };
}

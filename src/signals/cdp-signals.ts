import { describeCdpException, type CdpExceptionDetails } from './normalize-signal';
import type { RawSignal } from './signal-rules';
import { isUnaskedRequest } from './unasked-request';
import { reconcileTimestamp } from '../shared/timestamps';

/** The CDP domains the recorder enables on each recorded tab, and nothing else. */
export const CDP_ENABLE_COMMANDS = ['Runtime.enable', 'Log.enable', 'Network.enable', 'Inspector.enable', 'Page.enable'] as const;

interface PendingRequest {
  url: string;
  method: string;
  type: string | null;
  /** CDP monotonic timestamp, seconds. */
  started: number;
  /** A top-level navigation: the document it loads is the page the failure happened in. */
  mainDocument: boolean;
}

const MAX_PENDING = 2_000;

type Params = Record<string, unknown> | undefined;
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

const requestIdOf = (p: Record<string, unknown>): { requestId?: string } => (str(p.requestId) ? { requestId: str(p.requestId)! } : {});

/** Text of a `console.error(...)` call from its CDP remote-object arguments. */
export function consoleArgsText(args: unknown): string {
  if (!Array.isArray(args)) return '';
  return args
    .map((a: { value?: unknown; description?: string; type?: string }) =>
      a.value !== undefined ? (typeof a.value === 'string' ? a.value : JSON.stringify(a.value)) : (a.description ?? a.type ?? ''),
    )
    .join(' ');
}

/**
 * Turns the CDP events of one tab into raw signals. Keeps the in-flight requests (bounded) so a
 * failure can name its method, URL and duration.
 */
export class CdpSignalTranslator {
  private readonly pending = new Map<string, PendingRequest>();
  /** The top frame's id, learnt from `Page.frameNavigated`; until then any document navigation counts. */
  private mainFrameId: string | null = null;

  constructor(
    private readonly tabId: number,
    private readonly pageUrl: () => string | null,
    private readonly now: () => number,
  ) {}

  /** The tab's page as its debugger session tells it now. */
  currentPageUrl(): string | null {
    return this.pageUrl();
  }

  /** The signal an event carries, if any. */
  translate(method: string, params: Params): RawSignal | null {
    const p = params ?? {};
    switch (method) {
      case 'Network.requestWillBeSent': {
        const request = p.request as { url?: string; method?: string } | undefined;
        const id = str(p.requestId);
        if (!id || !request?.url) return null;
        if (this.pending.size >= MAX_PENDING) this.pending.delete(this.pending.keys().next().value!);
        const navigation = p.type === 'Document' && p.requestId === p.loaderId;
        const mainDocument = navigation && (this.mainFrameId === null || p.frameId === this.mainFrameId);
        this.pending.set(id, { url: request.url, method: request.method ?? 'GET', type: str(p.type), started: num(p.timestamp) ?? 0, mainDocument });
        return null;
      }
      case 'Page.frameNavigated': {
        const frame = p.frame as { id?: string; parentId?: string } | undefined;
        if (frame?.id && !frame.parentId) this.mainFrameId = frame.id;
        return null;
      }
      case 'Network.responseReceived': {
        const response = p.response as { url?: string; status?: number; statusText?: string } | undefined;
        const status = num(response?.status);
        const req = this.pending.get(str(p.requestId) ?? '');
        if (status === null || status < 400) return null;
        const url = response?.url ?? req?.url ?? '';
        if (isUnaskedRequest(url, status)) return null;
        const message = `HTTP ${status}${response?.statusText ? ` ${response.statusText}` : ''}: ${req?.method ?? 'GET'} ${url}`;
        return this.signal(status >= 500 ? 'http_5xx' : 'http_4xx', message, null, req?.mainDocument ? url : undefined, {
          url,
          method: req?.method ?? null,
          status,
          resourceType: str(p.type) ?? req?.type ?? null,
          durationMs: this.duration(req, num(p.timestamp)),
          errorText: null,
          ...requestIdOf(p),
        });
      }
      case 'Network.loadingFinished':
        this.pending.delete(str(p.requestId) ?? '');
        return null;
      case 'Network.loadingFailed': {
        const id = str(p.requestId) ?? '';
        const req = this.pending.get(id);
        this.pending.delete(id);
        const errorText = str(p.errorText) ?? 'failed';
        // Cancelled and aborted requests are the page's own doing (navigation, AbortController).
        if (p.canceled === true || errorText === 'net::ERR_ABORTED' || !req) return null;
        // The browser's own favicon fetch: nobody asked for it (see `unasked-request.ts`).
        if (isUnaskedRequest(req.url, null)) return null;
        const blocked = str(p.blockedReason);
        const message = `${req.method} ${req.url} failed: ${errorText}${blocked ? ` (blocked: ${blocked})` : ''}`;
        return this.signal('network_failure', message, null, req.mainDocument ? req.url : undefined, {
          url: req.url,
          method: req.method,
          status: null,
          resourceType: str(p.type) ?? req.type,
          durationMs: this.duration(req, num(p.timestamp)),
          errorText,
          ...requestIdOf(p),
        });
      }
      case 'Runtime.exceptionThrown': {
        const { message, stack } = describeCdpException((p.exceptionDetails ?? {}) as CdpExceptionDetails);
        // Dated when thrown: a session that starts replays the document's earlier exceptions.
        return { ...this.signal('exception', message, stack), ts: thrownAt(num(p.timestamp), this.now()) };
      }
      case 'Runtime.consoleAPICalled': {
        if (p.type !== 'error' && p.type !== 'assert') return null;
        const frames = (p.stackTrace as { callFrames?: { functionName?: string; url?: string; lineNumber?: number; columnNumber?: number }[] } | undefined)?.callFrames ?? [];
        const stack = frames.length ? frames.map((f) => `    at ${f.functionName || '<anonymous>'} (${f.url ?? ''}:${(f.lineNumber ?? 0) + 1}:${(f.columnNumber ?? 0) + 1})`).join('\n') : null;
        return this.signal('console_error', `console.${String(p.type)}: ${consoleArgsText(p.args)}`, stack);
      }
      case 'Log.entryAdded': {
        const entry = (p.entry ?? {}) as { level?: string; source?: string; text?: string; url?: string };
        // Network entries ("Failed to load resource…") repeat what the Network domain reports.
        if (entry.level !== 'error' || entry.source === 'network') return null;
        return this.signal('console_error', `${entry.source ?? 'log'}: ${entry.text ?? ''}`, null);
      }
      case 'Inspector.targetCrashed':
        return this.signal('crash', 'The page’s renderer process crashed', null);
      case 'Page.javascriptDialogOpening':
        return this.signal('dialog', `${str(p.type) ?? 'dialog'}: ${str(p.message) ?? ''}`, null);
      default:
        return null;
    }
  }

  private duration(req: PendingRequest | undefined, at: number | null): number | null {
    return req && at !== null && req.started > 0 ? Math.max(0, Math.round((at - req.started) * 1000)) : null;
  }

  private signal(kind: RawSignal['kind'], message: string, stack: string | null, pageUrl?: string, request: RawSignal['request'] = null): RawSignal {
    return { kind, tabId: this.tabId, pageUrl: pageUrl ?? this.pageUrl(), ts: this.now(), message, stack, request, origin: 'debugger' };
  }
}

/**
 * When an exception was thrown: CDP's `timestamp` (ms since the epoch, the renderer's clock) when it is
 * no later than now (give or take the clocks' skew), however long ago (a replay of a page open for
 * hours), else `now`. A time before 2001 is no time in ms since the epoch (seconds, say).
 */
function thrownAt(timestamp: number | null, now: number): number {
  return timestamp !== null && timestamp >= EPOCH_MS_FLOOR ? reconcileTimestamp(timestamp, now, Number.POSITIVE_INFINITY) : now;
}
const EPOCH_MS_FLOOR = 1e12;

/** `chrome.webRequest` resource types in CDP's words, for the fallback path without a debugger. */
export const WEB_REQUEST_TYPES: Record<string, string> = {
  main_frame: 'Document',
  sub_frame: 'Document',
  xmlhttprequest: 'XHR',
  image: 'Image',
  script: 'Script',
  stylesheet: 'Stylesheet',
  font: 'Font',
  media: 'Media',
  websocket: 'WebSocket',
  ping: 'Ping',
  other: 'Other',
};

import type { HarFile, NetworkSettings } from '../../schemas/network';
import type { SignalRule } from '../../schemas/signals';
import type { TextMasker } from '../redact/mask-text';
import { TEXT_MASK_KINDS } from '../redact/redaction-counts';
import type { Clock } from '../shared/clock';
import { findAppError } from './app-error';
import { captureBody } from './body-capture';
import { bodyKind } from './body-kind';
import { keepsResponseBody } from './body-policy';
import { buildHar, type HarPageMark } from './har-writer';
import { maskHeaders, type MaskedHeaders } from './mask-headers';
import type { NetworkHarSource, ResponseBodyReader } from './ports';
import { addExtraHeaders, addResponse, estimateBytes, recordFromRequest, type NetworkRecord } from './network-record';
import { ReadBudget } from './read-budget';
import { addHandshakeRequest, addHandshakeResponse, webSocketRecord } from './websocket-record';
import { maskContext, type MaskContext } from './withheld-value';
import { NETWORK_ENABLE_PARAMS } from './network-enable';

/** A 2xx JSON answer to an API call that says it failed, as the log read it (masked). */
export interface AppErrorSeen {
  /** CDP's id of the request, which its `network.har` entry carries as `_requestId`. */
  requestId: string;
  method: string;
  /** Redacted like every URL of the log. */
  url: string;
  status: number;
  resourceType: string;
  durationMs: number | null;
  /** The top-level fields that say it failed, and the masked excerpt of the answer. */
  fields: string[];
  excerpt: string;
}

/** What the log needs: the time, the masker and settings in force, and the debugger's body reads. */
export interface NetworkLogPorts {
  clock: Clock;
  masker(): TextMasker;
  settings(): { network: NetworkSettings; bufferSeconds: number; postFailureSeconds: number; signals?: { app_error: SignalRule } };
  /** Absent (no debugger): no bodies are read. */
  bodies?: ResponseBodyReader;
  /** A body read found an `app_error` (only asked for when the settings carry the rule, enabled). */
  appError?(tabId: number, seen: AppErrorSeen): void;
  log?(message: string): void;
  sleep?(ms: number): Promise<void>;
}

/** Beyond the window and the after-failure tail, how long a request stays for a bundle being made. */
const SPARE_MS = 5_000;
/** Pages remembered per tab, for HAR's `pages`. */
const MAX_PAGES = 100;
/** `…ExtraInfo` headers waiting for the event they belong to (they may come first). */
const MAX_WAITING_EXTRA = 200;
/** Body reads in flight per tab; a body finishing past it is left out (`busy`). */
const MAX_BODY_READS = 6;
/** Body reads per tab: a burst, then a steady rate (`ReadBudget`); a body past it is left out (`busy`). */
const READ_BURST = 100;
const READS_PER_SECOND = 50;
const API_TYPES = new Set(['XHR', 'Fetch']);
/** How long a bundle waits for the body reads under way. */
const SETTLE_MS = 1_000;

interface TabLog {
  records: NetworkRecord[];
  byId: Map<string, NetworkRecord>;
  bytes: number;
  pages: HarPageMark[];
  mainFrameId: string | null;
  waiting: Map<string, { request?: MaskedHeaders; response?: MaskedHeaders }>;
  seen: number;
  dropped: number;
  reads: Set<Promise<void>>;
  budget: ReadBudget;
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const spansOf = (ctx: MaskContext) => TEXT_MASK_KINDS.reduce((n, kind) => n + ctx.spans[kind], 0);

/**
 * Each recorded tab's requests, from the recorder's debugger session (`Network.*` events), masked as
 * they arrive (headers, cookies, URLs, request bodies; response bodies once read) and bounded like the
 * frame ring: by the window (`bufferSeconds` and the after-failure tail), `network.maxEntries` and
 * `network.maxBytes`, the oldest requests going first. Response bodies are read when the response
 * ends (see `docs/bundle-format.md#networkhar` for why then), only those `network.bodies` keeps.
 */
export class NetworkLog implements NetworkHarSource {
  private readonly tabs = new Map<number, TabLog>();

  constructor(private readonly ports: NetworkLogPorts) {}

  /** One CDP event of a recorded tab; anything but `Network.*` and `Page.frameNavigated` is ignored. */
  handleEvent(tabId: number, method: string, params: Record<string, unknown> | undefined): void {
    const p = params ?? {};
    if (method === 'Page.frameNavigated') {
      const frame = p.frame as { id?: string; parentId?: string } | undefined;
      if (frame?.id && !frame.parentId) this.tab(tabId).mainFrameId = frame.id;
      return;
    }
    if (!method.startsWith('Network.')) return;
    const id = str(p.requestId);
    if (!id) return;
    const settings = this.ports.settings();
    const ctx = maskContext(this.ports.masker());
    const tab = this.tab(tabId);
    let record = tab.byId.get(id);
    switch (method) {
      case 'Network.requestWillBeSent': {
        if (record && typeof p.redirectResponse === 'object' && p.redirectResponse !== null) {
          addResponse(record, p.redirectResponse as Record<string, unknown>, ctx);
          record.ended = num(p.timestamp);
          this.update(tab, record, ctx);
          tab.byId.delete(id);
          tab.waiting.delete(id);
        }
        record = recordFromRequest(p, settings.network.bodies, ctx, settings.network.maxBodyBytes) ?? undefined;
        if (!record) return;
        tab.seen++;
        const extra = tab.waiting.get(id)?.request;
        if (extra) addExtraHeaders(record, 'request', extra);
        if (record.navigation && (tab.mainFrameId === null || record.frameId === tab.mainFrameId)) this.addPage(tab, record);
        this.add(tab, record, ctx, settings);
        return;
      }
      case 'Network.webSocketCreated': {
        const socket = record ? null : webSocketRecord(p, this.ports.clock.now(), ctx);
        if (!socket) return;
        tab.seen++;
        this.add(tab, socket, ctx, settings);
        return;
      }
      case 'Network.webSocketWillSendHandshakeRequest':
      case 'Network.webSocketHandshakeResponseReceived': {
        if (!record || record.resourceType !== 'WebSocket') return;
        if (method === 'Network.webSocketWillSendHandshakeRequest') addHandshakeRequest(record, p, ctx);
        else addHandshakeResponse(record, p, ctx);
        this.update(tab, record, ctx);
        return;
      }
      case 'Network.webSocketClosed': {
        if (!record || record.resourceType !== 'WebSocket') return;
        record.ended = num(p.timestamp);
        tab.byId.delete(id);
        this.update(tab, record, ctx);
        return;
      }
      case 'Network.requestWillBeSentExtraInfo':
      case 'Network.responseReceivedExtraInfo': {
        const side = method === 'Network.requestWillBeSentExtraInfo' ? 'request' : 'response';
        const headers = maskHeaders(p.headers, ctx);
        if (record && (side === 'request' || record.response)) addExtraHeaders(record, side, headers);
        else this.wait(tab, id, side, headers);
        if (record) this.update(tab, record, ctx);
        return;
      }
      case 'Network.responseReceived': {
        if (!record || typeof p.response !== 'object' || p.response === null) return;
        addResponse(record, p.response as Record<string, unknown>, ctx);
        const extra = tab.waiting.get(id)?.response;
        if (extra) addExtraHeaders(record, 'response', extra);
        tab.waiting.delete(id);
        this.update(tab, record, ctx);
        return;
      }
      case 'Network.loadingFinished': {
        if (!record) return;
        record.ended = num(p.timestamp);
        record.encodedBytes = Math.round(num(p.encodedDataLength) ?? -1);
        tab.byId.delete(id);
        this.takeBody(tabId, tab, record, settings);
        this.update(tab, record, ctx);
        return;
      }
      case 'Network.loadingFailed': {
        if (!record) return;
        record.ended = num(p.timestamp);
        record.error = ctx.masker.maskAndCap(str(p.errorText) ?? 'failed', 256, ctx.spans) + (p.canceled === true ? ' (canceled)' : '');
        tab.byId.delete(id);
        tab.waiting.delete(id);
        this.update(tab, record, ctx);
        return;
      }
      default:
        return;
    }
  }

  /** The tab was closed: its requests go. */
  forgetTab(tabId: number): void {
    this.tabs.delete(tabId);
  }

  async har(tabId: number, windowStart: number, windowEnd: number, creator: { name: string; version: string }): Promise<HarFile | null> {
    const tab = this.tabs.get(tabId);
    if (!tab) return null;
    if (tab.reads.size > 0) {
      const sleep = this.ports.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
      await Promise.race([Promise.allSettled([...tab.reads]), sleep(SETTLE_MS)]);
    }
    const endOf = (r: NetworkRecord) => (r.ended === null ? Number.POSITIVE_INFINITY : r.startedAt + (r.ended - r.started) * 1000);
    const inWindow = tab.records.filter((r) => r.startedAt <= windowEnd && endOf(r) >= windowStart);
    return buildHar(inWindow, tab.pages, {
      creator,
      windowStart,
      maxBundleBodyBytes: this.ports.settings().network.maxBundleBodyBytes,
      seen: tab.seen,
      dropped: tab.dropped,
    });
  }

  private tab(tabId: number): TabLog {
    let tab = this.tabs.get(tabId);
    if (!tab) {
      tab = { records: [], byId: new Map(), bytes: 0, pages: [], mainFrameId: null, waiting: new Map(), seen: 0, dropped: 0, reads: new Set(), budget: new ReadBudget(READ_BURST, READS_PER_SECOND, this.ports.clock.now()) };
      this.tabs.set(tabId, tab);
    }
    return tab;
  }

  /** Adds what one event masked to its record's counts and its size to the tab's. */
  private update(tab: TabLog, record: NetworkRecord, ctx: MaskContext): void {
    record.withheld += ctx.withheld;
    record.spans += spansOf(ctx);
    ctx.withheld = 0;
    for (const kind of TEXT_MASK_KINDS) ctx.spans[kind] = 0;
    // A body read may end after its request was evicted: it no longer counts.
    if (record.bytes < 0) return;
    const bytes = estimateBytes(record);
    tab.bytes += bytes - record.bytes;
    record.bytes = bytes;
  }

  private add(tab: TabLog, record: NetworkRecord, ctx: MaskContext, settings: ReturnType<NetworkLogPorts['settings']>): void {
    tab.records.push(record);
    tab.byId.set(record.requestId, record);
    this.update(tab, record, ctx);
    this.evict(tab, settings);
  }

  private addPage(tab: TabLog, record: NetworkRecord): void {
    tab.pages.push({ id: `page_${tab.seen}`, startedAt: record.startedAt, title: record.url });
    if (tab.pages.length > MAX_PAGES) tab.pages.shift();
  }

  private wait(tab: TabLog, id: string, side: 'request' | 'response', headers: MaskedHeaders): void {
    if (!tab.waiting.has(id) && tab.waiting.size >= MAX_WAITING_EXTRA) tab.waiting.delete(tab.waiting.keys().next().value!);
    tab.waiting.set(id, { ...tab.waiting.get(id), [side]: headers });
  }

  /** The oldest requests go while the tab is over a bound, or past the window once ended. */
  private evict(tab: TabLog, settings: ReturnType<NetworkLogPorts['settings']>): void {
    const oldest = this.ports.clock.now() - (settings.bufferSeconds + settings.postFailureSeconds) * 1000 - SPARE_MS;
    const { maxEntries, maxBytes } = settings.network;
    while (tab.records.length > 0) {
      const first = tab.records[0]!;
      const over = tab.records.length > maxEntries || tab.bytes > maxBytes;
      if (!over && (first.ended === null || first.startedAt >= oldest)) break;
      tab.records.shift();
      tab.byId.delete(first.requestId);
      tab.bytes -= first.bytes;
      first.bytes = -1;
      if (over) tab.dropped++;
    }
  }

  /**
   * Reads the body of a finished response when `network.bodies` keeps it or the `app_error` rule asks
   * for it (then only to look for the fields that say it failed: the HAR keeps it as `not_kept`), or
   * says why it is not read: within the reads in flight and the tab's `ReadBudget`, else `busy`.
   */
  private takeBody(tabId: number, tab: TabLog, record: NetworkRecord, settings: ReturnType<NetworkLogPorts['settings']>): void {
    const mimeType = record.response?.mimeType ?? '';
    record.content.size = Math.max(0, record.encodedBytes);
    if (!record.response || !mimeType) return;
    const keep = keepsResponseBody(settings.network.bodies, record.resourceType, mimeType);
    const rule = settings.signals?.app_error;
    const ask = rule && this.ports.appError && asksAppError(rule, record, mimeType) ? rule : null;
    const kind = bodyKind(mimeType);
    const notKept = kind === 'stream' ? 'stream' : kind === 'text' || kind === 'json' || kind === 'form' ? 'not_kept' : 'binary';
    if (!keep && !ask) return void (record.content.omitted = notKept);
    // Chrome buffers no body larger than this (`Network.enable`): a bigger download is never asked for.
    if (record.encodedBytes > NETWORK_ENABLE_PARAMS.maxResourceBufferSize) return void (record.content.omitted = keep ? 'too_large' : notKept);
    const bodies = this.ports.bodies;
    if (!bodies) return void (record.content.omitted = keep ? 'unavailable' : notKept);
    if (tab.reads.size >= MAX_BODY_READS || !tab.budget.take(this.ports.clock.now())) return void (record.content.omitted = keep ? 'busy' : notKept);
    const ctx = maskContext(this.ports.masker());
    const read = bodies
      .responseBody(tabId, record.requestId)
      .then((body) => captureBody(body, mimeType, settings.network.maxBodyBytes, ctx))
      .then(
        (body) => {
          if (keep) {
            record.content = body;
            this.update(tab, record, ctx);
          } else record.content.omitted = notKept;
          // A fault in the look costs the signal, never the log (nor an unhandled rejection in the worker).
          try {
            const found = ask && body.text !== undefined ? findAppError(body.text, ask.jsonFields) : null;
            if (found) this.ports.appError?.(tabId, appErrorSeen(record, found.fields, found.excerpt));
          } catch (error) {
            this.ports.log?.(`[afr] app_error of request ${record.requestId} not looked at: ${String(error)}`);
          }
        },
        () => {
          record.content.omitted = keep ? 'unavailable' : notKept;
        },
      )
      .finally(() => tab.reads.delete(read));
    tab.reads.add(read);
  }
}

/** Whether an `app_error` rule wants this answer read: enabled, a 2xx JSON answer to an API call of a type it counts. */
function asksAppError(rule: SignalRule, record: NetworkRecord, mimeType: string): boolean {
  const status = record.response?.status ?? 0;
  if (!rule.enabled || status < 200 || status > 299 || !API_TYPES.has(record.resourceType) || bodyKind(mimeType) !== 'json') return false;
  return rule.resourceTypes.length === 0 || rule.resourceTypes.includes(record.resourceType);
}

function appErrorSeen(record: NetworkRecord, fields: string[], excerpt: string): AppErrorSeen {
  const durationMs = record.ended === null ? null : Math.max(0, Math.round((record.ended - record.started) * 1000));
  return {
    requestId: record.requestId,
    method: record.method,
    url: record.url,
    status: record.response?.status ?? 0,
    resourceType: record.resourceType,
    durationMs,
    fields,
    excerpt,
  };
}

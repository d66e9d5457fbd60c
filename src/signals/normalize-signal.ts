import type { FailureSignal } from '../../schemas/failure';
import { REASON_BY_KIND } from '../../schemas/signals';
import type { RawSignal } from './signal-rules';

const MESSAGE_CAP = 16 * 1024;
const STACK_CAP = 64 * 1024;

const cap = (text: string | null | undefined, max: number): string | null =>
  text == null ? null : text.length > max ? `${text.slice(0, max - 1)}…` : text;

/** The subset of CDP `Runtime.exceptionThrown` params the recorder reads. */
export interface CdpExceptionDetails {
  text?: string;
  url?: string;
  lineNumber?: number;
  columnNumber?: number;
  exception?: { description?: string; value?: unknown; className?: string };
  stackTrace?: { callFrames?: { functionName?: string; url?: string; lineNumber?: number; columnNumber?: number }[] };
}

/**
 * The message and stack of an uncaught exception as CDP reports it. `exception.description` holds
 * "Error: message\n    at …" for Error objects; a thrown primitive only has `value`; a rejected
 * promise is reported with `text` "Uncaught (in promise)".
 */
export function describeCdpException(details: CdpExceptionDetails): { message: string; stack: string | null } {
  const description = details.exception?.description;
  const value = details.exception?.value;
  const firstLine = description?.split('\n')[0];
  const thrown = firstLine ?? (value !== undefined ? String(value) : undefined);
  const prefix = details.text && details.text !== 'Uncaught' ? `${details.text}: ` : '';
  const message = thrown ? `${prefix}${thrown}` : (details.text ?? 'Uncaught exception');
  const frames = details.stackTrace?.callFrames ?? [];
  const stack =
    description && description.includes('\n')
      ? description
      : frames.length > 0
        ? frames.map((f) => `    at ${f.functionName || '<anonymous>'} (${f.url ?? ''}:${(f.lineNumber ?? 0) + 1}:${(f.columnNumber ?? 0) + 1})`).join('\n')
        : null;
  return { message, stack };
}

/** The failure a triggering (or recorded) raw signal stands for. */
export function signalFromRaw(raw: RawSignal): FailureSignal {
  const request = raw.request;
  return {
    kind: raw.kind,
    reason: REASON_BY_KIND[raw.kind],
    label: null,
    origin: raw.origin,
    tab_id: raw.tabId,
    url: raw.pageUrl,
    ts: raw.ts,
    message: cap(raw.message, MESSAGE_CAP),
    stack: cap(raw.stack, STACK_CAP),
    http_status: request?.status ?? null,
    request: request
      ? {
          url: request.url,
          method: request.method,
          status: request.status,
          resource_type: request.resourceType,
          duration_ms: request.durationMs,
          error_text: request.errorText,
          ...(request.requestId ? { request_id: request.requestId.slice(0, 128) } : {}),
          ...(request.excerpt ? { excerpt: cap(request.excerpt, 1024)! } : {}),
        }
      : null,
  };
}

/** A failure the agent declared (`fail`) or a failed assertion. */
export function explicitSignal(base: {
  tabId: number | null;
  url: string | null;
  ts: number;
  reason: string;
  label: string | null;
  origin: 'page' | 'agent' | 'operator';
  kind?: 'fail' | 'assertion';
  message?: string | null;
}): FailureSignal {
  return {
    kind: base.kind ?? 'fail',
    reason: base.reason,
    label: base.label,
    origin: base.origin,
    tab_id: base.tabId,
    url: base.url,
    ts: base.ts,
    message: cap(base.message ?? base.label, MESSAGE_CAP),
    stack: null,
    http_status: null,
    request: null,
  };
}

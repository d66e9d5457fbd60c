import type { FailureSignal } from '../../schemas/failure';

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

interface SignalBase {
  tabId: number | null;
  url: string | null;
  ts: number;
}

export function exceptionSignal(
  base: SignalBase & { message: string; stack: string | null; origin: 'debugger' | 'page_fallback' },
): FailureSignal {
  return {
    reason: 'page_exception',
    label: null,
    origin: base.origin,
    tab_id: base.tabId,
    url: base.url,
    ts: base.ts,
    message: cap(base.message, MESSAGE_CAP),
    stack: cap(base.stack, STACK_CAP),
    http_status: null,
  };
}

export function http5xxSignal(base: SignalBase & { status: number; statusLine: string | null }): FailureSignal {
  return {
    reason: 'http_5xx',
    label: null,
    origin: 'web_request',
    tab_id: base.tabId,
    url: base.url,
    ts: base.ts,
    message: cap(`Main document answered ${base.statusLine ?? `HTTP ${base.status}`}`, MESSAGE_CAP),
    stack: null,
    http_status: base.status,
  };
}

export function explicitSignal(base: SignalBase & { reason: string; label: string | null; origin: 'page' | 'agent' }): FailureSignal {
  return {
    reason: base.reason,
    label: base.label,
    origin: base.origin,
    tab_id: base.tabId,
    url: base.url,
    ts: base.ts,
    message: base.label,
    stack: null,
    http_status: null,
  };
}

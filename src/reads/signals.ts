import { msFromFailure, stackLines } from '../bundle-format/views';
import { BundleReadError } from './errors';
import type { BundleReader } from './open-bundle';
import { pageOf, type Page, type PageRequest } from './paging';
import type { ReadDiagnostics } from './read-schemas';

/*
 * What went wrong around the failure, from `diagnostics.json`: the console errors and failed requests
 * the recorder kept (paged), and the failure itself with what went wrong while recording.
 */

export interface ConsoleEntry {
  index: number;
  at_ms: number;
  message: string;
  url: string | null;
}

export interface RequestEntry {
  index: number;
  at_ms: number;
  method: string | null;
  url: string;
  status: number | null;
  error_text: string | null;
  resource_type: string | null;
  duration_ms: number | null;
}

/** Lines of the failure's stack an errors read keeps, and entries of the signal chain. */
const STACK_LINES = 12;
const CHAIN_ENTRIES = 20;
const WARNINGS = 20;

export interface ErrorsView {
  failure: { reason: string; kind: string | null; label: string | null; message: string | null; url: string | null; at_ms: number; http_status: number | null; origin: string | null; stack: string[] } | null;
  /** The signals seen before the failure and what the recorder did with each (newest last, bounded). */
  signal_chain: { at_ms: number; kind: string; disposition: string; reason: string; message: string | null }[];
  signal_chain_omitted: number;
  console_errors: number;
  failed_requests: number;
  warnings: string[];
  warnings_omitted: number;
  recording: { capture_errors: number; quota_errors: number; last_capture_error: string | null; dropped_frames: number | null; debugger_error: string | null; clip_error: string | null };
}

async function requireDiagnostics(reader: BundleReader, what: string): Promise<ReadDiagnostics> {
  const diagnostics = await reader.diagnostics();
  if (!diagnostics) throw new BundleReadError(`the bundle has no diagnostics.json: its capture level leaves out ${what}`, 'argument');
  return diagnostics;
}

/** A page of the console errors the recorder kept, oldest first. */
export async function listConsole(reader: BundleReader, request: PageRequest): Promise<Page<ConsoleEntry>> {
  const diagnostics = await requireDiagnostics(reader, 'console errors');
  const page = pageOf(diagnostics.console_errors ?? [], request);
  return { ...page, items: page.items.map((c, i) => ({ index: page.first + i, at_ms: msFromFailure(reader.failureTs, c.at), message: c.message, url: c.url ?? null })) };
}

/** A page of the failed requests the recorder kept, oldest first. */
export async function listRequests(reader: BundleReader, request: PageRequest): Promise<Page<RequestEntry>> {
  const diagnostics = await requireDiagnostics(reader, 'requests');
  const page = pageOf(diagnostics.failed_requests ?? [], request);
  return {
    ...page,
    items: page.items.map((r, i) => ({
      index: page.first + i,
      at_ms: msFromFailure(reader.failureTs, r.at),
      method: r.method,
      url: r.url,
      status: r.status,
      error_text: r.error_text,
      resource_type: r.resource_type ?? null,
      duration_ms: r.duration_ms ?? null,
    })),
  };
}

/** The failure with its stack, the signals before it, and what went wrong while recording. */
export async function readErrors(reader: BundleReader): Promise<ErrorsView> {
  const diagnostics = await requireDiagnostics(reader, 'errors');
  const f = diagnostics.failure;
  const chain = diagnostics.signal_chain ?? [];
  const snapshotError = (await reader.snapshot().catch(() => null))?.error ?? null;
  return {
    failure: {
      reason: f.reason,
      kind: f.kind ?? null,
      label: f.label,
      message: f.message,
      url: f.url,
      at_ms: msFromFailure(reader.failureTs, f.ts),
      http_status: f.http_status,
      origin: f.origin,
      stack: stackLines(f.stack, STACK_LINES),
    },
    signal_chain: chain.slice(-CHAIN_ENTRIES).map((s) => ({ at_ms: msFromFailure(reader.failureTs, s.at), kind: s.kind, disposition: s.disposition, reason: s.reason, message: s.message })),
    signal_chain_omitted: Math.max(0, chain.length - CHAIN_ENTRIES),
    console_errors: diagnostics.console_errors?.length ?? 0,
    failed_requests: diagnostics.failed_requests?.length ?? 0,
    warnings: [...diagnostics.warnings.slice(0, WARNINGS), ...(snapshotError ? [`snapshot: ${snapshotError}`] : [])],
    warnings_omitted: Math.max(0, diagnostics.warnings.length - WARNINGS),
    recording: {
      capture_errors: diagnostics.capture.capture_errors,
      quota_errors: diagnostics.capture.quota_errors,
      last_capture_error: diagnostics.capture.last_capture_error,
      dropped_frames: diagnostics.capture.dropped_frames ?? null,
      debugger_error: diagnostics.debugger.error,
      clip_error: diagnostics.clip_error,
    },
  };
}

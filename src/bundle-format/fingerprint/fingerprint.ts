import type { FailureSignature } from '../../../schemas/fingerprint';
import { inAppFrames } from './stack-frames';
import { templateText } from './template-text';
import { templateUrl } from './template-url';

/*
 * What a failure is, whoever met it: the same cause on other orders, users, times and pages of one
 * kind reads the same, and hashes to the same short fingerprint. A fleet's failures fold into a few
 * groups by it (`afr triage`, the index's SQL).
 */

/** What a bundle knows of its failure (manifest, diagnostics and steps carry all of it). */
export interface FailureFacts {
  /** The reason code: `exception`, `http_5xx`, `assertion`, `fail`… */
  reason: string;
  message: string | null;
  /** The page at the failure. */
  url: string | null;
  stack: string | null;
  request: { method: string | null; url: string; status: number | null } | null;
  /** The last action before the failure. */
  lastStep: { action: string; target: { role?: string; name?: string; tag: string } | string | null } | null;
}

export type { FailureSignature };

/** The version of the rules: a change to them changes fingerprints, so it changes this too. */
export const FINGERPRINT_VERSION = 1;

function stepPart(step: NonNullable<FailureFacts['lastStep']>): string {
  const target = step.target;
  const what = target === null ? null : typeof target === 'string' ? templateText(target) : [target.role ?? target.tag, target.name ? `"${templateText(target.name)}"` : null].filter(Boolean).join(' ');
  return [templateText(step.action), what].filter(Boolean).join(' ');
}

export function failureSignature(facts: FailureFacts): FailureSignature {
  const request = facts.request;
  return {
    reason: facts.reason,
    message: facts.message === null || facts.message.trim() === '' ? null : templateText(facts.message),
    page: templateUrl(facts.url),
    request: request === null ? null : [request.method ?? 'GET', templateUrl(request.url), request.status ?? 'failed'].join(' '),
    frames: inAppFrames(facts.stack),
    step: facts.lastStep === null ? null : stepPart(facts.lastStep) || null,
  };
}

/**
 * 64-bit FNV-1a of the text as 16 hex digits: short, stable across the worker, Node and any engine that
 * reads the stored value, and computed without a crypto port (this is a grouping key, not a secret).
 */
function fnv1a64(text: string): string {
  let hash = 0xcbf29ce484222325n;
  const bytes = new TextEncoder().encode(text);
  for (const byte of bytes) {
    hash ^= BigInt(byte);
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(16, '0');
}

/** The signature's fingerprint: 16 lowercase hex digits. */
export function fingerprintOf(signature: FailureSignature): string {
  return fnv1a64(JSON.stringify([FINGERPRINT_VERSION, signature.reason, signature.message, signature.page, signature.request, signature.frames, signature.step]));
}

/** The signature as one line, for tables: `exception: Cannot read … · shop.test/cart · total @ …`. */
export function signatureLine(signature: FailureSignature): string {
  return [`${signature.reason}${signature.message ? `: ${signature.message}` : ''}`, signature.request, signature.page, signature.frames[0] ?? null, signature.step ? `after ${signature.step}` : null]
    .filter((part): part is string => part !== null)
    .join(' · ');
}

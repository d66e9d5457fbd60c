import type { ObservedSignal, ReproFailure } from './ports';

/**
 * The recorded failure as something a replay can see happen again: the same signal, not the same bytes.
 * A 5xx (or 4xx) on the same method and URL path, a failed request to it, the same exception or console
 * error (its message's first line), a crash. `unchecked`: a failure the page cannot show (the agent's own
 * `fail`, a failed assertion of the agent, a dialog), kept as a comment and never reported as reproduced.
 */
export type Expectation =
  | { kind: 'response'; method: string; path: string; statusClass: 4 | 5; status: number | null }
  | { kind: 'request_failed'; method: string; path: string; error: string | null }
  | { kind: 'exception' | 'console_error'; firstLine: string }
  | { kind: 'crash' }
  | { kind: 'unchecked'; what: string };

/** A message's first line, trimmed: the part of an error text that stays the same from run to run. */
export const firstLine = (message: string): string => message.split(/\r\n|[\n\r\u2028\u2029]/)[0]!.trim();

/** `/api/checkout` from a recorded URL; the text itself when it is no URL. */
export function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

/** The expectation a failure makes, from its kind; `unchecked` when the page cannot show it. */
export function expectationOf(failure: ReproFailure): Expectation {
  const request = failure.request;
  const method = (request?.method ?? 'GET').toUpperCase();
  switch (failure.kind) {
    case 'http_5xx':
    case 'http_4xx':
      if (!request) break;
      return { kind: 'response', method, path: pathOf(request.url), statusClass: failure.kind === 'http_5xx' ? 5 : 4, status: request.status ?? failure.http_status };
    case 'network_failure':
      if (!request) break;
      return { kind: 'request_failed', method, path: pathOf(request.url), error: null };
    case 'exception':
    case 'console_error':
      if (!failure.message) break;
      return { kind: failure.kind, firstLine: firstLine(failure.message) };
    case 'crash':
      return { kind: 'crash' };
  }
  const words = failure.kind === 'assertion' ? `the agent's assertion${failure.label ? ` ${JSON.stringify(failure.label)}` : ''} failed` : `a ${failure.kind} failure`;
  return { kind: 'unchecked', what: words };
}

/**
 * Whether an exception's message matches the recorded first line. Browsers prefix an uncaught error
 * differently (`Uncaught TypeError: …` over CDP, `TypeError: …` in `pageerror`), so either may hold the other.
 */
function sameMessage(seen: string, expected: string): boolean {
  const line = firstLine(seen);
  const strip = (text: string) => text.replace(/^Uncaught (?:\(in promise\) )?/, '');
  return strip(line) === strip(expected) || line.includes(strip(expected)) || expected.includes(strip(line));
}

/** Whether a signal seen in a replay is the recorded failure happening again. */
export function matchesExpectation(expectation: Expectation, signal: ObservedSignal): boolean {
  switch (expectation.kind) {
    case 'response':
      return signal.kind === 'response' && signal.method.toUpperCase() === expectation.method && pathOf(signal.url) === expectation.path && Math.floor(signal.status / 100) === expectation.statusClass;
    case 'request_failed':
      return signal.kind === 'request_failed' && signal.method.toUpperCase() === expectation.method && pathOf(signal.url) === expectation.path;
    case 'exception':
    case 'console_error':
      return signal.kind === expectation.kind && sameMessage(signal.message, expectation.firstLine);
    case 'crash':
      return signal.kind === 'crash';
    case 'unchecked':
      return false;
  }
}

/**
 * Whether a signal settles that the failure will not come: the recorded request answered, with a status
 * of another class. A replay can then say `not reproduced` without waiting out its time.
 */
export function answersOtherwise(expectation: Expectation, signal: ObservedSignal): boolean {
  return expectation.kind === 'response' && signal.kind === 'response' && signal.method.toUpperCase() === expectation.method && pathOf(signal.url) === expectation.path && !matchesExpectation(expectation, signal);
}

/** The expectation in words, for a verdict and a script's comment: `POST /api/checkout answers 5xx`. */
export function describeExpectation(expectation: Expectation): string {
  switch (expectation.kind) {
    case 'response':
      return `${expectation.method} ${expectation.path} answers ${expectation.statusClass}xx${expectation.status ? ` (recorded: ${expectation.status})` : ''}`;
    case 'request_failed':
      return `${expectation.method} ${expectation.path} fails`;
    case 'exception':
      return `the page throws ${JSON.stringify(expectation.firstLine)}`;
    case 'console_error':
      return `the console logs the error ${JSON.stringify(expectation.firstLine)}`;
    case 'crash':
      return 'the page crashes';
    case 'unchecked':
      return `${expectation.what} (the page cannot show it: not checked)`;
  }
}

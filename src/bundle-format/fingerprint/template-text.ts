import { templateUrl } from './template-url';

/*
 * A message with its variable parts replaced, so that one cause reads the same on every order, user
 * and day: Sentry's fingerprinting does the same to an exception's message. Replaced, in this order:
 * URLs (by their template), emails, UUIDs, dates and times, hex, ids that mix letters and digits,
 * quoted values that look like data, then the remaining numbers. A quoted word without a digit or a space
 * stays: in `reading 'total'` it is the cause, not data. What one rule put in is never rewritten by the
 * next (the host `127.0.0.1:4173` of a URL's template keeps its digits).
 */

/** `30000ms`, `12px`, `5kb`: a number and its unit, not an id. */
const NUMBER_WITH_UNIT = /^\d+(?:\.\d+)?[a-z]{1,3}$/i;

type Replacement = string | ((match: string) => string | null);

const RULES: readonly [RegExp, Replacement][] = [
  [/\b(?:https?|wss?|file):\/\/[^\s'"`<>()]+/gi, (url) => templateUrl(url.replace(/[.,;:!?]+$/, '')) ?? '<url>'],
  [/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g, '<email>'],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>'],
  [/\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?/g, '<date>'],
  [/\b\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:\s?[AP]M)?\b/gi, '<time>'],
  [/\b0x[0-9a-f]+\b/gi, '<hex>'],
  [/\b[0-9a-f]{8,}\b/gi, (hex) => (/\d/.test(hex) && /[a-f]/i.test(hex) ? '<hex>' : null)],
  [/\b[a-z0-9]+(?:[_-][a-z0-9]+)*\b/gi, (token) => (token.length >= 6 && /\d/.test(token) && /[a-z]/i.test(token) && !NUMBER_WITH_UNIT.test(token) ? '<id>' : null)],
  [/(['"`])([^'"`\n]*?)\1/g, (quoted) => (/[\d\s@<]/.test(quoted.slice(1, -1)) || quoted.length > 26 ? `${quoted[0]}<value>${quoted[0]}` : null)],
  [/\d+(?:\.\d+)?/g, '<n>'],
];

/** At most this much of a message takes part: a cause is told in its first lines. */
const MAX_MESSAGE = 500;

interface Piece {
  text: string;
  /** Put in by a rule: later rules leave it as it is. */
  fixed: boolean;
}

function applyRule(pieces: Piece[], pattern: RegExp, replacement: Replacement): Piece[] {
  const out: Piece[] = [];
  for (const piece of pieces) {
    if (piece.fixed) {
      out.push(piece);
      continue;
    }
    let last = 0;
    for (const match of piece.text.matchAll(pattern)) {
      const put = typeof replacement === 'string' ? replacement : replacement(match[0]);
      if (put === null) continue;
      if (match.index > last) out.push({ text: piece.text.slice(last, match.index), fixed: false });
      out.push({ text: put, fixed: true });
      last = match.index + match[0].length;
    }
    if (last < piece.text.length) out.push({ text: piece.text.slice(last), fixed: false });
  }
  return out;
}

/**
 * The message's template: its first line (a stack or a body after it is not the cause), variable
 * parts replaced, white space folded.
 * @example templateText('Order 8812 not found at 2026-11-28T10:00:00Z') // 'Order <n> not found at <date>'
 */
export function templateText(message: string): string {
  let pieces: Piece[] = [{ text: message.split(/\r?\n/, 1)[0]!.slice(0, MAX_MESSAGE), fixed: false }];
  for (const [pattern, replacement] of RULES) pieces = applyRule(pieces, pattern, replacement);
  return pieces
    .map((p) => p.text)
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
}

import type { TextMaskKind } from '../../schemas/snapshot';
import { passesLuhn } from './luhn';
import { tokenizeIdentifier } from './sensitive-words';

/**
 * One kind of secret recognised in free text. Text masking, the on-screen spans that are masked in
 * pixels and the check on a value being typed all read this list, so a detector added here applies
 * everywhere at once.
 *
 * Every pattern is linear in the length of the text: a match starts only where a look-behind allows
 * (at the start of a run, after a fixed prefix), and no quantified group can match the same
 * characters two ways.
 */
export interface Detector {
  /** Stable name, for tests and the benchmark. */
  readonly name: string;
  readonly kind: TextMaskKind;
  /** Cheap test run before the pattern, given the text's facts: false when the pattern cannot match `text`. */
  readonly mayHold: (text: string, facts: TextFacts) => boolean;
  /** Global (`g`) pattern; its capture groups are passed to `validate` and `replace`. */
  readonly pattern: RegExp;
  /** False when a match is a look-alike (a failed Luhn check, too few digits, a slug). */
  readonly validate?: (match: string, groups: readonly (string | undefined)[]) => boolean;
  /**
   * What a valid match becomes, given the mask: by default the mask alone. A detector keeping part
   * of the match readable (the name in `password=…`) returns it around the mask.
   */
  readonly replace?: (match: string, groups: readonly (string | undefined)[], mask: string) => string | null;
  /** A value being typed that would be masked once complete (`ghp_`, `jane@`, `4111 11`). */
  readonly typing?: RegExp;
}

/** What the pre-checks read of a text, found once per text rather than once per detector. */
export interface TextFacts {
  /** Digits in the text, counted up to 13 (the most any pre-check needs). */
  readonly digits: number;
  readonly at: boolean;
  readonly plus: boolean;
  /** The text holds a word or prefix some credential detector starts with (in any case). */
  readonly credential: boolean;
}

/** Every credential detector's start, in one case-insensitive scan: most text holds none of them. */
const CREDENTIAL_HINT =
  /private key|authorization|bearer|basic|eyJ|A(?:KIA|SIA|BIA|CCA|3T)|gh[pousr]_|github_pat_|glpat-|xox|xapp-|_(?:live|test|prod)_|AIza|npm_|SG\.|shp|lin_api_|sk-|:\/\/|pass|pwd|secret|token|key|credential|session|sessid|sid=|cookie/i;
const MOST_DIGITS = 13;

/** The facts of `text` the pre-checks read. Masking only removes digits, `@`s and hints, so they hold for the text as it is being masked too. */
export function textFacts(text: string): TextFacts {
  return { digits: digitsUpTo(text, MOST_DIGITS), at: text.includes('@'), plus: text.includes('+'), credential: CREDENTIAL_HINT.test(text) };
}

/** The digits in `text`, counted up to `most`. */
function digitsUpTo(text: string, most: number): number {
  let digits = 0;
  for (let i = text.search(/\d/); i >= 0 && i < text.length && digits < most; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) digits++;
  }
  return digits;
}

function digitCount(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) n++;
  return n;
}

/** A credential detector's pre-check: the hint scan found something, and `test` holds. */
const credentialHint =
  (test: (text: string) => boolean) =>
  (text: string, facts: TextFacts): boolean =>
    facts.credential && test(text);
const includesAny = (...needles: string[]) => credentialHint((text) => needles.some((n) => text.includes(n)));

// ---------------------------------------------------------------------------------------------
// Credentials. Formats follow gitleaks' default rules and secretlint's recommended preset (AWS,
// GitHub, GitLab, Slack, Stripe, Google, OpenAI, Anthropic, npm, SendGrid, Shopify, Linear, JWT,
// private keys, basic and bearer authorization, passwords in URLs), with wider length bounds so a
// longer token is still caught whole. Rules that need a keyword near an unprefixed random string
// (gitleaks' "generic" rules, entropy checks) are left out: they cost a scan per word of every page.
// ---------------------------------------------------------------------------------------------

/** Start of a token: not inside a run of token characters. */
const START = String.raw`(?<![\w-])`;

/**
 * A PEM private key, from its BEGIN line to its END line, or to the end of the text when the END
 * line is missing (a cut message). The body is read one character at a time, stopping only at the
 * END line, so a key is never split.
 */
const PRIVATE_KEY: Detector = {
  name: 'private_key',
  kind: 'credential',
  mayHold: credentialHint((text) => text.includes('PRIVATE KEY')),
  pattern: /-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----(?:[^-]|-(?!----END))*(?:-----END[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----)?/g,
  typing: /-----BEGIN/,
};

/**
 * `Authorization: Bearer abc…`, `"authorization":"Basic …"`: the name stays, its value (scheme and token) goes.
 * A backquote opens a value as a quote does and, with `${`, ends it: a page's own code that builds the
 * header (`authorization: \`Bearer ${token}\``, in an HTML body of `network.har`) stays code that
 * runs when Playwright's `routeFromHAR` serves the page again, with only the scheme masked.
 */
const AUTHORIZATION_HEADER: Detector = {
  name: 'authorization_header',
  kind: 'credential',
  mayHold: credentialHint((text) => /authorization/i.test(text)),
  pattern:
    /\b((?:proxy-)?authorization["']?\s*[:=]\s*["'`]?)(?:(?:bearer|basic|token|digest|negotiate|ntlm|hmac|aws4-hmac-sha256)\s+)?(?:[^\s"'`,;$]|\$(?!\{))+/gi,
  replace: (_m, [name], mask) => `${name}${mask}`,
};

/**
 * `Bearer abc…` or `Basic dXNlcjpwYXNz` on their own (a header printed without its name). The
 * value must hold a digit or a token character (`-._~+/=`), so `Bearer tokens` or `Basic information` stay.
 */
const BEARER_OR_BASIC: Detector = {
  name: 'bearer_or_basic',
  kind: 'credential',
  mayHold: credentialHint((text) => /bearer|basic/i.test(text)),
  pattern: /\b(bearer|basic)(\s+)(?=[A-Za-z]*[\d\-._~+/=])([A-Za-z0-9\-._~+/]{8,}=*)/gi,
  replace: (_m, [scheme, space], mask) => `${scheme}${space}${mask}`,
  typing: /\bbearer\s+\S/i,
};

/** A JSON Web Token anywhere: header and payload both start as base64url of `{"` (`eyJ`). */
const JWT: Detector = {
  name: 'jwt',
  kind: 'credential',
  mayHold: credentialHint((text) => text.includes('eyJ')),
  pattern: new RegExp(String.raw`${START}eyJ[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]*`, 'g'),
  typing: /eyJ[\w-]{8,}\./,
};

/** Tokens recognised by their own prefix, whatever surrounds them. */
const KEY_FORMATS: readonly (readonly [name: string, prefixes: string[], pattern: string, typing: RegExp])[] = [
  ['aws_access_key_id', ['AKIA', 'ASIA', 'ABIA', 'ACCA', 'A3T'], String.raw`(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}`, /\b(?:AKIA|ASIA)[A-Z0-9]{4}/],
  ['github_token', ['gh'], String.raw`gh[pousr]_[A-Za-z0-9]{20,}`, /\bgh[pousr]_/],
  ['github_fine_grained_token', ['github_pat_'], String.raw`github_pat_\w{20,}`, /\bgithub_pat_/],
  ['gitlab_token', ['glpat-'], String.raw`glpat-[\w-]{20,}`, /\bglpat-/],
  ['slack_token', ['xox', 'xapp-'], String.raw`(?:xox[abposre]|xapp)-[A-Za-z0-9-]{10,}`, /\bxox[abposre]-/],
  ['stripe_secret_key', ['_live_', '_test_', '_prod_'], String.raw`(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{10,}`, /\b[sr]k_(?:live|test)_/],
  ['google_api_key', ['AIza'], String.raw`AIza[\w-]{35}`, /\bAIza[\w-]{4}/],
  ['npm_token', ['npm_'], String.raw`npm_[A-Za-z0-9]{36,}`, /\bnpm_[A-Za-z0-9]{4}/],
  ['sendgrid_api_key', ['SG.'], String.raw`SG\.[\w-]{16,32}\.[\w-]{16,}`, /\bSG\.[\w-]{16}/],
  ['shopify_token', ['shp'], String.raw`shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32,}`, /\bshp(?:at|ca|pa|ss)_/],
  ['linear_api_key', ['lin_api_'], String.raw`lin_api_[A-Za-z0-9]{40,}`, /\blin_api_/],
];

const keyFormat = ([name, prefixes, pattern, typing]: (typeof KEY_FORMATS)[number]): Detector => ({
  name,
  kind: 'credential',
  mayHold: includesAny(...prefixes),
  pattern: new RegExp(`${START}${pattern}`, 'g'),
  typing,
});

/**
 * The password of a URL's user information (`postgres://app:s3cret@db:5432`, `https://u:p@host`),
 * the scheme, user and host staying readable. A match starts only where a scheme starts.
 */
const URL_PASSWORD: Detector = {
  name: 'url_password',
  kind: 'credential',
  mayHold: (text, facts) => facts.at && facts.credential && text.includes('://'),
  pattern: /(?<![a-z0-9+.-])([a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)[^\s/@]+(?=@)/gi,
  replace: (_m, [head], mask) => `${head}${mask}`,
};

/**
 * OpenAI (`sk-…`, `sk-proj-…`) and Anthropic (`sk-ant-api03-…`) keys. Random keys mix upper case and
 * digits; a lower-case slug (`sk-summer-sale-2026-shoes`) does not, and stays.
 */
const SK_KEY: Detector = {
  name: 'openai_anthropic_key',
  kind: 'credential',
  mayHold: credentialHint((text) => text.includes('sk-')),
  pattern: new RegExp(String.raw`${START}sk-[\w-]{20,}`, 'g'),
  validate: (m) => /[A-Z]/.test(m) && /\d/.test(m),
  typing: /(?<![\w-])sk-(?:ant-|proj-)?[A-Za-z0-9]{4}/,
};

/**
 * Last words of a name whose value is a secret: `password`, `db_password`, `apiToken`, `client-secret`.
 * Words that also name ordinary things in prose (`Session: 45 minutes`, `Signature: J. Smith`,
 * `Boarding pass: …`) are left to the URL rules, where they name parameters.
 */
const SECRET_NAME_WORDS = new Set([
  'password', 'passwd', 'pwd', 'passphrase', 'secret', 'token', 'apikey', 'credential', 'credentials', 'sessionid',
  'privatekey', 'secretkey', 'accesskey',
]);
/** `key` alone is a sort key or a hotkey as often as a secret: secret only as `key=…` or after one of these words. */
const KEY_QUALIFIERS = new Set(['api', 'access', 'secret', 'private', 'client', 'auth', 'signing', 'encryption', 'master', 'license', 'app', 'account', 'session']);

/** Whether `name` (with its separator) names a secret value. */
export function namesSecret(name: string, separator: string): boolean {
  const words = tokenizeIdentifier(name);
  const last = words[words.length - 1];
  if (!last) return false;
  if (SECRET_NAME_WORDS.has(last)) return true;
  if (words.length >= 2 && SECRET_NAME_WORDS.has(words[words.length - 2]! + last)) return true;
  if (last !== 'key') return false;
  return separator.trim().startsWith('=') || (words.length >= 2 && KEY_QUALIFIERS.has(words[words.length - 2]!));
}

/**
 * `password=hunter2`, `token: abc`, `"client_secret":"…"`, `api_key='…'`: the name stays readable,
 * the value is masked (a quoted value up to its closing quote, else up to a space or delimiter; at
 * most 512 characters, which keeps a match from running to the end of the line from every name).
 * The name is at most 64 characters, so a failed match backtracks a bounded distance.
 */
const SECRET_PAIR: Detector = {
  name: 'secret_pair',
  kind: 'credential',
  mayHold: credentialHint((text) => (text.includes('=') || text.includes(':')) && /pass|pwd|secret|token|key|credential|session/i.test(text)),
  pattern: /(?<![\w.-])([A-Za-z][\w.-]{0,63})(["']?\s{0,8}[:=]\s{0,8})(?:"([^"\r\n]{1,512})"?|'([^'\r\n]{1,512})'?|([^\s"'&,;<>[\]=][^\s"'&,;<>[\]]{0,511}))/g,
  validate: (_m, [name, separator, dq, sq, bare]) =>
    namesSecret(name!, separator!.replace(/["'\s]/g, '')) && (bare === undefined || !/^(?:null|undefined|none|true|false|\*+)$/i.test(bare)) && (dq ?? sq ?? bare ?? '') !== '',
  replace: (m, [name, separator, dq, sq], mask) => {
    const quote = dq !== undefined ? '"' : sq !== undefined ? "'" : '';
    // A quoted value longer than the bound, or cut, has no closing quote: none is added.
    return `${name}${separator}${quote}${mask}${quote && m.endsWith(quote) && m.length > name!.length + separator!.length + 1 ? quote : ''}`;
  },
};

/** Attributes of a `Set-Cookie` line (RFC 6265 §5.2 and later drafts): their values are not secrets. */
const COOKIE_ATTRIBUTES = new Set(['path', 'domain', 'expires', 'max-age', 'samesite', 'priority', 'partitioned', 'secure', 'httponly']);

/** A `name=value` of a cookie list: at its start or after `;`/`,`; the value quoted or up to a space or delimiter. */
const COOKIE_PAIR = /(^|[;,][ \t]{0,8})([\w!#$%&'*+.^`|~-]{1,256})=("[^"\r\n]{0,4096}"|[^\s;,"]{1,4096})/g;

/**
 * `Cookie: sessionid=…; theme=dark` and `Set-Cookie: id=…; Path=/; HttpOnly` lines (and `"cookie": "…"`,
 * `document.cookie = "…"`): every cookie's value is masked, whatever its name, its name and the
 * attributes of a `Set-Cookie` stay readable. The value must start as a cookie list (`name=`), so
 * `Cookie: we use cookies` or `Cookie policy` stay. A line ends at a line break or, when the value is
 * quoted, at its closing quote, and is read at most 4096 characters far.
 */
const COOKIE_HEADER: Detector = {
  name: 'cookie_header',
  kind: 'credential',
  mayHold: credentialHint((text) => /cookie2?["']?\s{0,8}[:=]/i.test(text)),
  pattern: /\b((?:set-)?cookie2?)(["']?[ \t]{0,8}[:=][ \t]{0,8})(?=["']?[\w!#$%&*+.^`|~-]{1,256}=)(?:"([^"\r\n]{1,4096})|'([^'\r\n]{1,4096})|([^\r\n]{1,4096}))/gi,
  replace: (_m, [name, separator, dq, sq, bare], mask) => {
    const setCookie = name!.toLowerCase().startsWith('set-');
    const quote = dq !== undefined ? '"' : sq !== undefined ? "'" : '';
    let masked = 0;
    const list = (dq ?? sq ?? bare!).replace(COOKIE_PAIR, (pair, lead: string, cookie: string, value: string) => {
      // A value an earlier detector masked (a JWT) is counted once.
      if (value === mask || (setCookie && COOKIE_ATTRIBUTES.has(cookie.toLowerCase()))) return pair;
      masked++;
      return `${lead}${cookie}=${mask}`;
    });
    return masked ? `${name}${separator}${quote}${list}` : null;
  },
  typing: /\b(?:set-)?cookie\s{0,8}:\s{0,8}[\w.-]{1,64}=[^\s;]/i,
};

/**
 * Names of session cookies: `sessionid`, `session`, `sid`, `PHPSESSID`, `JSESSIONID`, `session_id`,
 * and any of them after a prefix ending in `_`, `.` or `-` (`connect.sid`, `laravel_session`,
 * `_myapp_session`, `ASP.NET_SessionId`). Matched as a whole name, so `inside=` is not `sid=`.
 */
const SESSION_NAME = String.raw`(?:[\w.-]{0,48}[_.-])?(?:session[_-]?id|sessid|session|sid|phpsessid|jsessionid)`;
/** `session` and `sid` alone also name ordinary values (`session=expired`): those need a digit or length. */
const GENERIC_SESSION_NAME = /^(?:session|sid)$/i;

/**
 * `sessionid=…`, `PHPSESSID=…`, `connect.sid=s%3A…`, `laravel_session=…` written as a cookie is
 * (no space around `=`), outside a `Cookie:` line too: the name stays, the value is masked. A value
 * shorter than 8 characters is not a session id (`sid=42`, `session=none`); after `session` or `sid`
 * alone it must also hold a digit or be 16 characters long (`session=inactive` stays). Prose
 * (`the session = 3 minutes`) has spaces around `=` and is left alone; a URL's `?` or `#` ends a
 * value (`/app;jsessionid=…?tab=2`).
 */
const SESSION_COOKIE_PAIR: Detector = {
  name: 'session_cookie',
  kind: 'credential',
  mayHold: credentialHint((text) => text.includes('=') && /sess|sid=/i.test(text)),
  pattern: new RegExp(String.raw`(?<![\w.-])(${SESSION_NAME})=(?:"([^"\s;,]{1,4096})"|([^\s"';,&<>[\]?#]{1,4096}))`, 'gi'),
  validate: (_m, [name, quoted, bare]) => {
    const value = quoted ?? bare ?? '';
    if (value.length < 8) return false;
    return !GENERIC_SESSION_NAME.test(name!) || /\d/.test(value) || value.length >= 16;
  },
  replace: (_m, [name, quoted], mask) => (quoted !== undefined ? `${name}="${mask}"` : `${name}=${mask}`),
  typing: new RegExp(String.raw`(?<![\w.-])${SESSION_NAME}=[^\s;]{4}`, 'i'),
};

// ---------------------------------------------------------------------------------------------
// Personal data (unchanged behaviour: e-mail addresses, phone numbers, SSNs, Luhn-valid cards).
// ---------------------------------------------------------------------------------------------

// A local part is anything but space and the characters that usually delimit an address in prose.
// The look-behind makes a match start only at the beginning of a run, which keeps the scan linear.
const LOCAL = String.raw`[^\s@<>()[\]\\,;:"'/?#&=|]`;
const EMAIL: Detector = {
  name: 'email',
  kind: 'email',
  mayHold: (_text, facts) => facts.at,
  pattern: new RegExp(String.raw`(?<!${LOCAL})${LOCAL}+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+`, 'gu'),
  typing: /[^\s@]@/,
};

const phoneDigits = (m: string) => {
  const n = digitCount(m);
  return n >= 7 && n <= 15;
};

// +44 20 7946 0958, +1 (415) 555-0134, +14155550134: a plus, then digit groups with separators.
const PHONE_INTL: Detector = {
  name: 'phone_international',
  kind: 'phone',
  mayHold: (_text, facts) => facts.plus && facts.digits >= 7,
  pattern: /(?<![\d+])\+(?:\d{7,15}|\d{1,3}(?:[ .-]\d{1,8}|[ .-]?\(\d{1,4}\)\d{0,8}){1,6})(?!\d|[.-]\d)/g,
  validate: phoneDigits,
};
// 415-555-0134, (415) 555-0134, 1-415-555-0134, 415.555.0134. Not 2026-11-22, $415.55, #10023.
// Letters may touch a number (text of neighbouring cells is joined: `Phone415-555-0134`), digits may not.
const PHONE_US: Detector = {
  name: 'phone_us',
  kind: 'phone',
  mayHold: (_text, facts) => facts.digits >= 7,
  pattern: /(?<![\d+#$€£¥.,/:-])(?:1[ .-]?)?(?:\(\d{3}\)[ .-]?|\d{3}[ .-])\d{3}[ .-]\d{4}(?!\d|[.,/:-]\d)/g,
  validate: phoneDigits,
};
const SSN: Detector = {
  name: 'ssn',
  kind: 'ssn',
  mayHold: (_text, facts) => facts.digits >= 9,
  pattern: /(?<![\d-])\d{3}([- ])\d{2}\1\d{4}(?!\d|-\d)/g,
};

/**
 * The card number inside a run of digit groups, if any: the whole run, else the longest stretch of
 * whole groups that holds 13–19 digits and passes Luhn (a card followed by another number).
 */
function maskCardRun(run: string, mask: string): string | null {
  if (passesLuhn(run.replace(/[ -]/g, ''))) return mask;
  const parts = run.split(/([ -])/); // groups at even indexes, separators at odd ones
  let best: [number, number] | null = null;
  for (let i = 0; i < parts.length; i += 2) {
    let digits = '';
    for (let j = i; j < parts.length; j += 2) {
      digits += parts[j];
      if (digits.length > 19) break;
      if (digits.length >= 13 && passesLuhn(digits) && (!best || j - i > best[1] - best[0])) best = [i, j];
    }
  }
  if (!best) return null;
  return parts.slice(0, best[0]).join('') + mask + parts.slice(best[1] + 1).join('');
}

// 13–19 digits, single spaces or dashes between them; checked with Luhn before masking.
const CARD: Detector = {
  name: 'card_number',
  kind: 'card_number',
  mayHold: (_text, facts) => facts.digits >= 13,
  pattern: /(?<!\d)\d(?:[ -]?\d){12,18}(?!\d)/g,
  replace: (run, _groups, mask) => maskCardRun(run, mask),
};

/** Six digits in a run of digits and phone or card separators: a phone or card number being typed. */
const TYPING_NUMBER = /\d(?:[\s().+-]{0,3}\d){5}/;

/**
 * Every built-in detector, in the order they run. Credentials come first: their tokens hold digits
 * and `@`s that a phone or address mask would otherwise cut in two, leaving the rest readable.
 */
export const DETECTORS: readonly Detector[] = [
  PRIVATE_KEY,
  AUTHORIZATION_HEADER,
  BEARER_OR_BASIC,
  JWT,
  ...KEY_FORMATS.map(keyFormat),
  SK_KEY,
  URL_PASSWORD,
  // Before the pairs: `Cookie: a=…` would otherwise be read as one pair named `Cookie`.
  COOKIE_HEADER,
  SESSION_COOKIE_PAIR,
  SECRET_PAIR,
  EMAIL,
  PHONE_INTL,
  PHONE_US,
  SSN,
  { ...CARD, typing: TYPING_NUMBER },
];

/** Whether any built-in detector may match `text` (its pre-checks only). */
export function mayHoldDetected(text: string): boolean {
  // The personal-data checks first (an `@`, seven digits: cheap, and enough), the hint scan only when they fail.
  if (text.includes('@') || digitsUpTo(text, 7) >= 7) return true;
  if (!CREDENTIAL_HINT.test(text)) return false;
  const facts = textFacts(text);
  for (const d of DETECTORS) if (d.mayHold(text, facts)) return true;
  return false;
}

/**
 * True when a field's value could be a secret still being typed: `jane.doe@exam`, `4111 11` or
 * `ghp_` are not masked yet, but their pixels would show part of the secret.
 */
export function mayBeTypingSecret(value: string): boolean {
  for (const d of DETECTORS) if (d.typing?.test(value)) return true;
  return false;
}

/** Replaces what the detectors find in `text` with `masks[kind]`, counting each replacement. */
export function applyDetectors(text: string, masks: Readonly<Record<TextMaskKind, string>>, counts: Record<TextMaskKind, number>): string {
  const facts = textFacts(text);
  if (!facts.credential && !facts.at && facts.digits < 7) return text;
  let out = text;
  for (const d of DETECTORS) {
    if (!d.mayHold(out, facts)) continue;
    d.pattern.lastIndex = 0;
    out = out.replace(d.pattern, (match: string, ...rest: unknown[]) => {
      // `replace` passes the groups, then the offset (a number), the whole string, and named groups.
      const groups = rest.slice(0, rest.findIndex((r) => typeof r === 'number')) as (string | undefined)[];
      if (d.validate && !d.validate(match, groups)) return match;
      const mask = masks[d.kind];
      const replaced = d.replace ? d.replace(match, groups, mask) : mask;
      if (replaced === null) return match;
      counts[d.kind]++;
      return replaced;
    });
  }
  return out;
}

import type { RedactionKind } from '../../schemas/snapshot';

/**
 * Splits an identifier or a label into lower-case words: on anything that is not a letter or digit,
 * and on camelCase and letter/digit boundaries, so `apiToken` → `api token`, `user-SSN` → `user ssn`,
 * `cvv2` → `cvv 2`. Whole words are compared, which keeps `shipping` and `spinner` away from `pin`.
 */
export function tokenizeIdentifier(text: string): string[] {
  return text.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+/g)?.map((w) => w.toLowerCase()) ?? [];
}

/**
 * Words (or words written together, like `cardnumber`) that mark a form field as sensitive.
 * Multi-word entries are matched against 2 or 3 neighbouring tokens joined without separator.
 */
const FIELD_WORDS = new Map<string, RedactionKind>(Object.entries({
  password: 'password',
  passwd: 'password',
  pwd: 'password',
  passphrase: 'password',
  ssn: 'ssn',
  socialsecurity: 'ssn',
  card: 'credit_card',
  cardnumber: 'credit_card',
  ccnum: 'credit_card',
  ccnumber: 'credit_card',
  creditcard: 'credit_card',
  cvv: 'cvv',
  cvc: 'cvv',
  csc: 'cvv',
  securitycode: 'cvv',
  iban: 'iban',
  secret: 'secret',
  token: 'token',
  apikey: 'token',
  // Fields for keys and sessions ("Access key", "Secret access key", "API key", "Session ID"): the
  // words alone, since a field labelled "Key" or "Auth" holds a secret more often than not.
  key: 'secret',
  accesskey: 'secret',
  auth: 'token',
  authorization: 'token',
  bearer: 'token',
  credential: 'secret',
  credentials: 'secret',
  session: 'token',
  sessionid: 'token',
  csrf: 'token',
  xsrf: 'token',
  otp: 'one_time_code',
  totp: 'one_time_code',
  '2fa': 'one_time_code',
  mfa: 'one_time_code',
  onetimecode: 'one_time_code',
  onetimepassword: 'one_time_code',
  verificationcode: 'one_time_code',
  pin: 'pin',
  pincode: 'pin',
  passcode: 'pin',
  email: 'email',
  mail: 'email',
  phone: 'tel',
  telephone: 'tel',
  tel: 'tel',
  mobile: 'tel',
  // A few common non-English words for password.
  passwort: 'password',
  kennwort: 'password',
  motdepasse: 'password',
  wachtwoord: 'password',
  senha: 'password',
}) as [string, RedactionKind][]);

/** URL query keys whose value is withheld whatever it looks like. */
const URL_KEY_WORDS = new Set([
  ...FIELD_WORDS.keys(),
  'pass',
  'code',
  'key',
  'session',
  'sessionid',
  'sid',
  'auth',
  'authorization',
  'sig',
  'signature',
  'credential',
  'credentials',
  'jwt',
  'ticket',
  'saml',
  'samlresponse',
]);

/** Each token, and each run of 2 or 3 neighbouring tokens written together. */
function* candidateWords(tokens: readonly string[]): Generator<string> {
  for (let i = 0; i < tokens.length; i++) {
    let joined = tokens[i]!;
    yield joined;
    for (let j = i + 1; j < Math.min(tokens.length, i + 3); j++) {
      joined += tokens[j];
      yield joined;
    }
  }
}

/** The redaction kind a field's name, id, label or placeholder text implies, or null. */
export function sensitiveWordKind(text: string): RedactionKind | null {
  if (!text) return null;
  for (const word of candidateWords(tokenizeIdentifier(text))) {
    const kind = FIELD_WORDS.get(word);
    if (kind) return kind;
  }
  return null;
}

/** True when a URL query (or fragment) parameter named `key` carries a credential or personal data. */
export function isSensitiveParamKey(key: string): boolean {
  for (const word of candidateWords(tokenizeIdentifier(key))) {
    if (URL_KEY_WORDS.has(word)) return true;
  }
  return false;
}

import { DEFAULT_APP_ERROR_FIELDS } from '../../schemas/signals';

/** Characters of a JSON answer an `app_error` quotes: enough for `{"error":"token_expired",…}`. */
export const APP_ERROR_EXCERPT_CHARS = 300;

/** One field pattern of the `app_error` rule: the field, and the value it must equal (absent: any that says something). */
interface FieldTest {
  name: string;
  equals?: { literal: unknown } | { text: string };
}

/** `ok=false` → `{ name: 'ok', equals: { literal: false } }`; `status=error` → `{ …, equals: { text: 'error' } }`. */
function fieldTest(pattern: string): FieldTest {
  const eq = pattern.indexOf('=');
  if (eq < 0) return { name: pattern };
  const name = pattern.slice(0, eq);
  const value = pattern.slice(eq + 1);
  if (/^(true|false|null|-?\d+(\.\d+)?)$/.test(value)) return { name, equals: { literal: JSON.parse(value) as unknown } };
  return { name, equals: { text: value.toLowerCase() } };
}

/** Whether a field present without a wanted value says something: `{"error": null}`, `[]`, `{}`, `""`, `false` and `0` say "no error". */
function saysSomething(value: unknown): boolean {
  if (value === null || value === false || value === 0 || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value as object).length > 0;
  return true;
}

function passes(test: FieldTest, body: Record<string, unknown>): boolean {
  if (!Object.hasOwn(body, test.name)) return false;
  const value = body[test.name];
  if (!test.equals) return saysSomething(value);
  if ('literal' in test.equals) return value === test.equals.literal;
  return typeof value === 'string' && value.toLowerCase() === test.equals.text;
}

/**
 * The top-level fields of a parsed JSON answer that say it failed, by the rule's patterns (empty:
 * `DEFAULT_APP_ERROR_FIELDS`); none for anything but a JSON object (an array, a string, a number).
 * @example failedFields({ error: 'token_expired' }, []) // ['error']
 */
export function failedFields(body: unknown, patterns: readonly string[]): string[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return [];
  const record = body as Record<string, unknown>;
  const tests = (patterns.length > 0 ? patterns : DEFAULT_APP_ERROR_FIELDS).map(fieldTest);
  return [...new Set(tests.filter((t) => passes(t, record)).map((t) => t.name))];
}

/**
 * A short excerpt of an answer: the fields that say it failed first, then the others in order, as
 * JSON, cut at `max` characters. The body is masked already (see `NetworkLog`): a cut leaves no
 * fragment of a secret, only of a mask.
 */
export function appErrorExcerpt(body: Record<string, unknown>, fields: readonly string[], max = APP_ERROR_EXCERPT_CHARS): string {
  const keys = [...fields, ...Object.keys(body).filter((k) => !fields.includes(k))];
  let out = '{';
  for (const key of keys) {
    if (out.length > max) break;
    out += `${out.length > 1 ? ',' : ''}${JSON.stringify(key)}:${JSON.stringify(body[key]) ?? 'null'}`;
  }
  out += '}';
  return out.length > max ? `${out.slice(0, max - 1)}…` : out;
}

/** What makes a 2xx answer an `app_error`: the fields that say so and an excerpt of it. */
export interface AppErrorFinding {
  fields: string[];
  excerpt: string;
}

/**
 * Whether a (masked) JSON answer says it failed. Most answers name none of the fields: a look for
 * `"name"` in the text rules them out before any parse.
 */
export function findAppError(text: string, patterns: readonly string[]): AppErrorFinding | null {
  const names = (patterns.length > 0 ? patterns : DEFAULT_APP_ERROR_FIELDS).map((p) => fieldTest(p).name);
  if (!names.some((name) => text.includes(JSON.stringify(name)))) return null;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return null;
  }
  const fields = failedFields(body, patterns);
  return fields.length > 0 ? { fields, excerpt: appErrorExcerpt(body as Record<string, unknown>, fields) } : null;
}
